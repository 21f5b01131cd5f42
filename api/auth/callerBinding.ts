import { boundTo, EVERY_TENANT, type TenantReach } from '../../domain/access/tenantReach.ts';
import { UNBOUND_CALLER, type Caller } from '../../domain/access/caller.ts';

/**
 * The tenants a verified token may touch, from its `tenant_id` claim: a string or an array of strings binds it;
 * absent, it reaches every tenant. A claim of any other shape (a number, an object, an array with a non-string)
 * binds it to none: a token we cannot read is never given more.
 */
export function tenantReachOf(principal: { tenant_id?: unknown } | undefined): TenantReach {
  const claim = principal?.tenant_id;
  if (claim === undefined) return EVERY_TENANT;
  if (typeof claim === 'string') return boundTo([claim]);
  if (Array.isArray(claim) && claim.every((id) => typeof id === 'string')) return boundTo(claim as string[]);
  return boundTo([]);
}

/** The product a product's token is bound to (its `product` claim), which verify then checks; undefined when unbound. */
export function boundProductOf(principal: { product?: unknown } | undefined): string | undefined {
  const claim = principal?.product;
  return typeof claim === 'string' && claim !== '' ? claim : undefined;
}

/** What a verified token binds its caller to; no token (authentication off) binds nothing. */
export function callerOf(principal: { tenant_id?: unknown; product?: unknown; [claim: string]: unknown } | undefined): Caller {
  if (principal === undefined || (principal.tenant_id === undefined && principal.product === undefined)) return UNBOUND_CALLER;
  const boundProduct = boundProductOf(principal);
  return boundProduct === undefined ? { reach: tenantReachOf(principal) } : { reach: tenantReachOf(principal), boundProduct };
}
