import { AppError } from '../errors.ts';

/**
 * What a tenant may hold or do at most (SPEC-EXTENSIONS §13), each a setting (platform/config.ts, TENANT_*_LIMIT).
 * The name is what a refusal's `limit` says.
 */
export interface TenantLimits {
  directories: number;
  sso_connections: number;
  domains: number;
  pending_invitations: number;
  /** Invitation sends (creations and resends, with or without an e-mail) in the last hour. */
  invitations_sent_per_hour: number;
}

export type TenantLimitName = keyof TenantLimits;

/** The window the sends of `invitations_sent_per_hour` are counted in. */
export const INVITATION_SENDS_WINDOW_MS = 60 * 60_000;

const WHAT: Record<TenantLimitName, (limit: number) => string> = {
  directories: (limit) => `this tenant has reached its limit of ${limit} directories; delete one to make another`,
  sso_connections: (limit) => `this tenant has reached its limit of ${limit} SSO connections; delete one to make another`,
  domains: (limit) => `this tenant has reached its limit of ${limit} domains; remove one to add another`,
  pending_invitations: (limit) => `this tenant has reached its limit of ${limit} pending invitations; revoke one or wait for some to be accepted or expire`,
  invitations_sent_per_hour: (limit) => `this tenant has sent its limit of ${limit} invitations in the last hour; try again later`,
};

/** 409 `limit_reached`, naming the limit in `details.limit` (the Error body's `limit`). */
export const limitReached = (name: TenantLimitName, limit: number) => new AppError('limit_reached', WHAT[name](limit), { limit: name });

/** The rule of every limit: one more is allowed only while the tenant holds (or did) fewer than its limit. */
export function requireBelowLimit(limits: TenantLimits, name: TenantLimitName, held: number): void {
  if (held >= limits[name]) throw limitReached(name, limits[name]);
}
