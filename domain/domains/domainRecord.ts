/** Where a tenant's claim to a domain stands (SPEC-EXTENSIONS §9). */
export const DOMAIN_STATES = ['pending', 'verified', 'failed'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** The TXT record a tenant publishes to prove it holds a domain: its name under the domain, and its value. */
export const VERIFICATION_NAME_PREFIX = '_tenant-registry.';
export const VERIFICATION_VALUE_PREFIX = 'tenant-registry-verification=';

/** One domain a tenant claims, with the secret token its TXT record must carry. */
export interface DomainRecord {
  id: string;
  tenantId: string;
  /** Lower-cased, without a trailing dot. */
  domain: string;
  state: DomainState;
  /** The random token of the TXT record's value. */
  token: string;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  /** When the tenant's actor looks the record up next; null: never again (failed). */
  nextCheckAt: Date | null;
  /** Look-ups in a row that did not find the record while pending (the backoff's count). */
  misses: number;
  createdAt: Date;
  updatedAt: Date;
}

export const verificationName = (domain: string): string => `${VERIFICATION_NAME_PREFIX}${domain}`;
export const verificationValue = (token: string): string => `${VERIFICATION_VALUE_PREFIX}${token}`;
