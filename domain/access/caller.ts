import { EVERY_TENANT, type TenantReach } from './tenantReach.ts';

/** What a caller's token binds it to, whatever its scopes (SPEC-EXTENSIONS §12). */
export interface Caller {
  reach: TenantReach;
  /** A product's token: verify checks this product even when the request names none. */
  boundProduct?: string;
}

/** A caller without a token (authentication off) or with an unbound one. */
export const UNBOUND_CALLER: Caller = { reach: EVERY_TENANT };
