import { log } from '@temporalio/activity';
import { IdpError, type PushedMembership, type TenantRef } from '../../identityProvider/identityProvider.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';
import { asActivityFailure } from './activityFailures.ts';
import { productClientsFor, pushedMembershipOf } from './pushedMembership.ts';

/** The tenant's organization in the provider, made if it is missing (the first step of whatever needs it). */
export const ensureOrganization = ({ step, idp }: ActorActivityContext, tenant: TenantRef) =>
  step('organization', () => asActivityFailure(() => idp.ensureOrganization(tenant)));

/** The tenant's claims pushed into its users' attributes (the actor's pushClaims; the last step of provisioning). */
export const pushTenantClaims = (context: ActorActivityContext, tenantId: string, asOf?: number): Promise<{ users: number }> =>
  context.step('push_claims', () => pushClaimsToMembers(context, tenantId, asOf));

/**
 * Pushes the tenant's claims as of `asOf` into the attributes of each of its members (its own roles and
 * permissions; an inactive member's none) and of each other user of its organization (membership status `none`).
 * A member the provider does not have (a user deleted there) is skipped: there is nothing to write into, and one
 * such member must not hold back the tenant's push.
 */
async function pushClaimsToMembers(context: ActorActivityContext, tenantId: string, asOf?: number): Promise<{ users: number }> {
  const { stores, idp } = context;
  const tenant = await stores.tenants.snapshot({ by: 'id', id: tenantId });
  if (!tenant) return { users: 0 };
  const now = asOf ?? Date.now();
  const [members, clients] = await Promise.all([stores.members.allOfTenant(tenantId), productClientsFor(context)]);
  const userIds = await asActivityFailure(() => idp.listTenantUserIds(tenantId));
  const memberIds = new Set(members.map((member) => member.userId));
  const pushes: [string, PushedMembership][] = [
    ...members.map((member): [string, PushedMembership] => [member.userId, pushedMembershipOf(tenant, member, now, clients)]),
    ...userIds.filter((userId) => !memberIds.has(userId)).map((userId): [string, PushedMembership] => [userId, pushedMembershipOf(tenant, undefined, now, clients)]),
  ];
  let skipped = 0;
  for (const [userId, membership] of pushes) {
    await asActivityFailure(() =>
      idp.pushMembership(userId, tenant.slug, membership).catch((error: unknown) => {
        if (!(error instanceof IdpError && error.status === 404 && memberIds.has(userId))) throw error;
        skipped += 1;
        log.warn('member not found in the identity provider; its claims were not pushed', { tenantId, userId });
      }),
    );
  }
  log.info('pushed claims', { tenantId, users: pushes.length - skipped, skipped });
  return { users: pushes.length - skipped };
}

/** The organization family's activities: the tenant's claims pushed outside provisioning (a change of status, plan or products; the timeline). */
export const organizationActivities = (context: ActorActivityContext) => ({
  pushTenantClaims: (tenantId: string, asOf?: number) => pushTenantClaims(context, tenantId, asOf),
});
