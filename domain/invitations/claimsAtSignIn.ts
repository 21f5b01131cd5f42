import type { TenantReach } from '../access/tenantReach.ts';
import { resolveClaims } from '../claims/resolveClaims.ts';
import type { RegistryCache } from '../registryCache.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { Claims, ClaimsRequest } from '../schemas/claims.ts';
import { acceptInvitation } from './acceptInvitation.ts';

/**
 * The claims of a token being issued. A pending member asking for its tenant's token has signed in, which an invited
 * user can do only after completing its invite (a new user's required actions) or, being a user already, by choosing
 * the organization it was invited to: the backstop of SPEC-EXTENSIONS §8 accepts its pending invitation then, should
 * the provider's report not have come, and the token carries the member's roles as active.
 */
export async function claimsAtSignIn(context: RegistryContext, request: ClaimsRequest, cache: RegistryCache | undefined, reach: TenantReach): Promise<Claims> {
  const claims = await resolveClaims(context.stores, request, cache, reach);
  if (claims.membership_status !== 'pending' || request.user_id === undefined) return claims;
  const accepted = await acceptInvitation(context, { by: 'user', tenantId: claims.tenant_id, userId: request.user_id }, request.user_id, { via: 'sign_in' });
  return accepted ? resolveClaims(context.stores, request, cache, reach) : claims;
}
