import { actorActivityContext, type TenantActorActivityDeps } from './actorActivityContext.ts';
import { invitationActivities } from './invitationActivities.ts';
import { organizationActivities } from './organizationActivities.ts';
import { outcomeActivities } from './outcomeActivities.ts';
import { provisioningActivities } from './provisioningActivities.ts';
import { syncActivities } from './syncActivities.ts';
import { timelineActivities } from './timelineActivities.ts';

export type { TenantActorActivityDeps } from './actorActivityContext.ts';
export type { OutcomeContext } from './outcomeActivities.ts';
export type { ActorTimelineEvent } from './timelineActivities.ts';

/**
 * The side effects of a tenant's actor, the registry's database and the identity provider, by the actor's families
 * (workflows/tenantActor/families/): each family's activities in `<family>Activities.ts`, composed here into the one
 * set the worker registers. An activity's name is its key.
 */
export function createTenantActorActivities(deps: TenantActorActivityDeps) {
  const context = actorActivityContext(deps);
  return {
    ...provisioningActivities(context),
    ...invitationActivities(context),
    ...syncActivities(context),
    ...organizationActivities(context),
    ...timelineActivities(context),
    ...outcomeActivities(context),
  };
}

export type TenantActorActivities = ReturnType<typeof createTenantActorActivities>;
