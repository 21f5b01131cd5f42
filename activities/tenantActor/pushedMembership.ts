import { memberClaimsOf } from '../../domain/claims/memberClaims.ts';
import { grantOf } from '../../domain/claims/membershipGrants.ts';
import { claimsOfSnapshot } from '../../domain/claims/resolveClaims.ts';
import type { MemberRecord } from '../../domain/members/memberRecord.ts';
import type { CachedTenant } from '../../domain/reads/tenantCache.ts';
import type { ProductClient } from '../../domain/signIn/productClients.ts';
import type { PushedMembership } from '../../identityProvider/identityProvider.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';

/**
 * One user's claims in one tenant as pushed into its attributes, as of `asOf`: the tenant's claims with what the
 * member's record grants, by the rule the registry answers with (memberClaimsOf: only an active member has roles and
 * permissions), so the mapper's fallback never grants more than the registry would. A user of the tenant's
 * organization that is no member (`member` undefined) has membership status `none`. With them, what the extension
 * decides a sign-in by while the registry cannot be asked (SPEC-EXTENSIONS §15): the tenant's sign-in policy, the
 * member's break-glass mark, and the products' clients as this tenant's entitlements make them.
 */
export function pushedMembershipOf(tenant: CachedTenant, member: MemberRecord | undefined, asOf: number, clients: readonly ProductClient[]): PushedMembership {
  const granted = memberClaimsOf(member && grantOf(member));
  const claims = claimsOfSnapshot(tenant, [], asOf);
  const entitled = new Set(claims.products);
  const clientsWhere = (keep: (client: ProductClient) => boolean) => clients.filter(keep).map((client) => client.clientId).sort();
  return {
    tenant_id: claims.tenant_id,
    tenant_slug: claims.tenant_slug,
    plan: claims.plan,
    tenant_status: claims.tenant_status,
    products: claims.products ?? [],
    org_roles: granted.org_roles,
    permissions: granted.permissions,
    membership_status: granted.membership_status,
    break_glass: member?.breakGlass ?? false,
    sign_in: tenant.signIn,
    entitled_clients: clientsWhere((client) => entitled.has(client.product)),
    refused_clients: clientsWhere((client) => !entitled.has(client.product)),
    fail_closed_clients: clientsWhere((client) => client.fail === 'closed'),
  };
}

/** Every product's clients, for the pushes: none when the activities were given no catalog. */
export const productClientsFor = async ({ stores }: ActorActivityContext): Promise<readonly ProductClient[]> => (stores.catalog ? stores.catalog.clients() : []);
