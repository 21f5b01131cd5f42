import { AppError, invalidInput, notFound } from '../errors.ts';

/**
 * The tenants a caller may touch (SPEC-EXTENSIONS §12): every one, or only those its token is bound to (its
 * `tenant_id` claim), whatever its scopes.
 */
export type TenantReach = { readonly bound: false } | { readonly bound: true; readonly tenantIds: ReadonlySet<string> };

export const EVERY_TENANT: TenantReach = { bound: false };

export const boundTo = (tenantIds: Iterable<string>): TenantReach => ({ bound: true, tenantIds: new Set(tenantIds) });

export function reaches(reach: TenantReach, tenantId: string): boolean {
  return !reach.bound || reach.tenantIds.has(tenantId);
}

/** Another tenant is answered as one that does not exist: a bound caller cannot even learn that it does. */
export function requireReach(reach: TenantReach, tenantId: string, what = 'tenant'): void {
  if (!reaches(reach, tenantId)) throw notFound(what);
}

/** An operation over every tenant or none in particular (creating a tenant, the audit streams, the chain's check). */
export function requireUnbound(reach: TenantReach, operation: string): void {
  if (reach.bound) throw new AppError('forbidden', `a token bound to tenants cannot ${operation}`);
}

/**
 * The tenant a per-tenant read is for when the caller may leave it out: the one asked for (if reachable), else, for a
 * caller bound to one tenant, that one; a caller bound to several must name it (no listing mixes tenants' rows).
 * Undefined: every tenant (an unbound caller that named none).
 */
export function tenantFilterFor(reach: TenantReach, asked: string | undefined): string | undefined {
  if (asked !== undefined) {
    requireReach(reach, asked);
    return asked;
  }
  if (!reach.bound) return undefined;
  if (reach.tenantIds.size === 1) return [...reach.tenantIds][0];
  throw invalidInput('tenant_id is required: the token is bound to several tenants');
}

/** A write a bound caller makes must name one of its tenants (an event of no tenant is everyone's). */
export function requireNamedReach(reach: TenantReach, tenantId: string | undefined): void {
  if (tenantId === undefined) {
    if (reach.bound) throw invalidInput('tenant_id is required: the token is bound to tenants');
    return;
  }
  requireReach(reach, tenantId);
}
