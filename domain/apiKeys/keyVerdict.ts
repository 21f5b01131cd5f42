import { tenantMayUseApiKeys } from '../tenantLifecycle.ts';
import type { VerifiableKey } from './apiKeyRepository.ts';

export const VERIFY_CODES = ['VALID', 'NOT_FOUND', 'REVOKED', 'EXPIRED', 'TENANT_INACTIVE', 'INSUFFICIENT_SCOPE', 'WRONG_PRODUCT'] as const;
export type VerifyCode = (typeof VERIFY_CODES)[number];

/** What the caller of verify asks of the key besides being valid; taken from an unvalidated body. */
export interface VerifyRequirements {
  required_scopes?: unknown;
  product?: unknown;
}

/**
 * The verdict on a key whose hash matched, first failing rule wins: the key's own state (revoked, then expired),
 * then its tenant, then the product the caller's token is bound to, then what the caller asked (product, then scopes). A requirement that is present but malformed
 * fails closed with its own code: a product that cannot be matched, scopes that cannot be proven.
 */
export function keyVerdict(key: VerifiableKey, tenantStatus: string, wants: VerifyRequirements, now: number, boundProduct?: string): VerifyCode {
  if (key.revoked) return 'REVOKED';
  if (key.expiresAt !== null && key.expiresAt <= now) return 'EXPIRED';
  if (!tenantMayUseApiKeys(tenantStatus)) return 'TENANT_INACTIVE';
  // A product's token checks its own product whether or not the request names one (SPEC-EXTENSIONS §12).
  if (boundProduct !== undefined && key.product !== null && key.product !== boundProduct) return 'WRONG_PRODUCT';
  if (wants.product !== undefined && (typeof wants.product !== 'string' || (key.product !== null && key.product !== wants.product))) {
    return 'WRONG_PRODUCT';
  }
  if (wants.required_scopes !== undefined && !hasScopes(key.scopes, wants.required_scopes)) return 'INSUFFICIENT_SCOPE';
  return 'VALID';
}

function hasScopes(granted: string[], required: unknown): boolean {
  if (!Array.isArray(required)) return false;
  for (const scope of required) if (typeof scope !== 'string' || !granted.includes(scope)) return false;
  return true;
}
