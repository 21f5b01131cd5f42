import { SLUG_PATTERN } from '../schemas/common.ts';
import type { ClaimsRequest } from '../schemas/claims.ts';
import { invalidInput } from '../errors.ts';

export type TenantLookup = { by: 'id'; id: string } | { by: 'slug'; slug: string };

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * SPEC rule 8: the first key present wins, in the order body.tenant_id, body.tenant_slug,
 * user_attrs.tenant_id, user_attrs.tenant_slug. A present key that is malformed is an input error,
 * not a reason to fall through to the next one.
 */
export function tenantLookupFor(request: ClaimsRequest): TenantLookup {
  const lookup = namedTenantOf(request) ?? attributeTenantOf(request);
  if (lookup) return lookup;
  throw invalidInput('one of tenant_id, tenant_slug, user_attrs.tenant_id or user_attrs.tenant_slug is required');
}

/** The tenant the body names (the organization the token is for): body.tenant_id, then body.tenant_slug. */
export function namedTenantOf(request: ClaimsRequest): TenantLookup | undefined {
  if (request.tenant_id) return { by: 'id', id: request.tenant_id.toLowerCase() };
  if (request.tenant_slug) return { by: 'slug', slug: request.tenant_slug };
  return undefined;
}

/** The tenant the user's attributes name: user_attrs.tenant_id, then user_attrs.tenant_slug. */
export function attributeTenantOf(request: ClaimsRequest): TenantLookup | undefined {
  const attrs = request.user_attrs ?? {};
  if (attrs.tenant_id) {
    if (!UUID_PATTERN.test(attrs.tenant_id)) throw invalidInput('user_attrs.tenant_id must be a UUID');
    return { by: 'id', id: attrs.tenant_id.toLowerCase() };
  }
  if (attrs.tenant_slug) {
    if (!SLUG_PATTERN.test(attrs.tenant_slug)) throw invalidInput('user_attrs.tenant_slug is not a valid slug');
    return { by: 'slug', slug: attrs.tenant_slug };
  }
  return undefined;
}

/** org_roles are the user's, not the tenant's: they come from the caller's user attributes (comma-separated). */
export function orgRolesFrom(request: ClaimsRequest): string[] {
  const raw = request.user_attrs?.org_roles;
  if (!raw) return [];
  return [...new Set(raw.split(',').map((r) => r.trim()).filter(Boolean))];
}
