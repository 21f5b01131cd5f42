import { randomUUID } from 'node:crypto';
import { nativePool } from '../../store/nativePool.ts';
import type { Orm } from '../../store/orm.ts';
import { insertUser } from '../../store/simulatedIdentityProviderTables.ts';

/**
 * A user of the simulated identity provider, as an administrator would have made it (the provider's own users, not
 * provisioning's): its id. The e-mail defaults to one no other test uses; the name is split into first and last.
 */
export async function addSimulatedUser(orm: Orm, user: { email?: string; name?: string; tenantId?: string } = {}): Promise<string> {
  const [firstName, ...rest] = (user.name ?? 'Sim User').split(' ');
  const id = await insertUser(await nativePool(orm), {
    address: user.email ?? `user-${randomUUID()}@example.test`,
    firstName: firstName || null,
    lastName: rest.join(' ') || null,
    tenantId: user.tenantId ?? randomUUID(),
    realmRoles: [],
    requiredActions: [],
  });
  if (!id) throw new Error(`a simulated user with the e-mail ${user.email} exists`);
  return id;
}
