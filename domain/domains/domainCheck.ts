import { retryDelayMs, type RetryPolicy } from '../retryPolicy.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import { verificationValue, type DomainRecord } from './domainRecord.ts';

const HOUR_MS = 60 * 60_000;

/** How a pending domain's record is looked for again: a minute, doubling, at most an hour apart (within the window). */
export const PENDING_CHECKS: RetryPolicy = { initialIntervalMs: 60_000, backoffCoefficient: 2, maximumIntervalMs: HOUR_MS };

/** DOMAIN_VERIFICATION_WINDOW_HOURS and DOMAIN_RECHECK_HOURS. */
export interface DomainCheckTimes {
  windowHours: number;
  recheckHours: number;
}

/** What one look-up of the TXT record found: whether a value is the domain's, or that the resolver did not answer. */
export type TxtFound = { values: string[] } | { unavailable: string };

/** A domain's event: in its tenant, targeting the domain by id and named by it. */
export function domainAuditEvent(action: string, domain: Pick<DomainRecord, 'id' | 'tenantId' | 'domain'>, metadata: Record<string, unknown> = {}): AuditAppend {
  return { action, tenant_id: domain.tenantId, target_id: domain.id, target_type: 'domain', target_name: domain.domain, metadata };
}

/**
 * The rule of one look-up (SPEC-EXTENSIONS §9): the record found verifies a pending or failed domain
 * (`domain.verified`) and keeps a verified one, re-checked every `recheckHours`; not found, a pending domain is
 * looked for again with backoff until `windowHours` after its creation and then fails (`domain.failed`), a verified
 * one fails at once (`domain.verification_lost`), a failed one stays failed. A resolver that did not answer changes
 * nothing but the next look-up's time: it is not a failed verification.
 */
export function planDomainCheck(before: DomainRecord, found: TxtFound, now: Date, times: DomainCheckTimes): { domain: DomainRecord; event?: AuditAppend } {
  const at = now.getTime();
  const recheck = new Date(at + times.recheckHours * HOUR_MS);
  if ('unavailable' in found) {
    const retry = before.state === 'failed' ? null : new Date(at + retryDelayMs(PENDING_CHECKS, before.misses + 1));
    return { domain: { ...before, nextCheckAt: retry, updatedAt: now } };
  }
  const present = found.values.some((value) => value.trim() === verificationValue(before.token));
  const checked = { ...before, lastCheckedAt: now, updatedAt: now };
  if (present) {
    if (before.state === 'verified') return { domain: { ...checked, nextCheckAt: recheck, misses: 0 } };
    const domain: DomainRecord = { ...checked, state: 'verified', verifiedAt: now, nextCheckAt: recheck, misses: 0 };
    return { domain, event: domainAuditEvent('domain.verified', domain, { was: before.state }) };
  }
  if (before.state === 'verified') {
    const domain: DomainRecord = { ...checked, state: 'failed', nextCheckAt: null, misses: 0 };
    return { domain, event: domainAuditEvent('domain.verification_lost', domain, { verified_at: before.verifiedAt?.toISOString() ?? null }) };
  }
  if (before.state === 'failed') return { domain: { ...checked, nextCheckAt: null } };
  const windowEnds = before.createdAt.getTime() + times.windowHours * HOUR_MS;
  const misses = before.misses + 1;
  const next = at + retryDelayMs(PENDING_CHECKS, misses);
  if (at >= windowEnds) {
    const domain: DomainRecord = { ...checked, state: 'failed', nextCheckAt: null, misses };
    return { domain, event: domainAuditEvent('domain.failed', domain, { window_hours: times.windowHours }) };
  }
  // The last look-up falls on the window's end, so a domain fails on time, not up to an hour late.
  return { domain: { ...checked, misses, nextCheckAt: new Date(Math.min(next, windowEnds)) } };
}
