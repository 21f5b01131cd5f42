import { TenantActor } from './tenantActor.ts';
import type { TenantActorInput } from './tenantActorMessages.ts';

/**
 * The actor of one tenant (workflow id `tenant-<id>`): owns every identity-provider side effect of that tenant and
 * runs them one at a time, in the order the commands arrived (see TenantActor).
 */
export async function tenantActorWorkflow(input: TenantActorInput): Promise<void> {
  const actor = new TenantActor(input);
  actor.registerHandlers();
  await actor.run();
}
