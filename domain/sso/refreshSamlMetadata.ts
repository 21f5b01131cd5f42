import { samlMetadataChanges } from './samlMetadataChanges.ts';
import { ssoConnectionAuditEvent } from './ssoConnectionAuditEvent.ts';
import type { SamlIdpMetadata, SamlSsoConnectionRecord } from './ssoConnectionRecord.ts';
import type { SsoConnectionChange, SsoConnectionChangeFacts } from './ssoConnectionRepository.ts';

const HOUR_MS = 3600_000;
/** A failed reading is tried again within the hour: a rollover waits for the IdP's metadata server, not a whole period. */
const RETRY_AFTER_FAILURE_MS = HOUR_MS;

/** When a SAML connection's metadata URL is read next: a period after the last success, or within the hour after a failure since. */
export function nextMetadataRefreshAt(connection: SamlSsoConnectionRecord, refreshHours: number): number | undefined {
  if (connection.metadataUrl === null) return undefined;
  const { refreshedAt, failedAt } = connection.metadataRefresh;
  const afterSuccess = refreshedAt.getTime() + refreshHours * HOUR_MS;
  if (failedAt === null || failedAt.getTime() < refreshedAt.getTime()) return afterSuccess;
  return failedAt.getTime() + Math.min(RETRY_AFTER_FAILURE_MS, refreshHours * HOUR_MS);
}

/**
 * A reading of the metadata URL applied at `asOf` (the actor's time). Read: the IdP becomes what the metadata says
 * now, a new certificate taken in beside the old and a removed one dropped (`sso.connection_changed` by the system,
 * and a `syncSso`, only when the IdP changed). Failed: the connection keeps what it had, the failure is recorded and
 * its first of a streak audited (`sso.metadata_refresh_failed`). A connection gone, or no longer read from a URL
 * (`url`, the one that was read, is not its URL any more), is left alone.
 */
export function planMetadataRefresh(url: string, outcome: { metadata: SamlIdpMetadata } | { failed: string }, asOf: Date) {
  return (facts: SsoConnectionChangeFacts, now: Date): SsoConnectionChange<{ providerChanged: boolean }> => {
    const before = facts.connection;
    if (before?.protocol !== 'saml' || before.metadataUrl !== url) return { result: { providerChanged: false } };
    if ('failed' in outcome) {
      const streak = before.metadataRefresh.failedAt !== null && before.metadataRefresh.failedAt.getTime() >= before.metadataRefresh.refreshedAt.getTime();
      const after = { ...before, metadataRefresh: { ...before.metadataRefresh, failedAt: asOf, error: outcome.failed } };
      const event = streak ? undefined : ssoConnectionAuditEvent('sso.metadata_refresh_failed', after, { error: outcome.failed });
      return { put: after, event, sync: false, result: { providerChanged: false } };
    }
    const changes = samlMetadataChanges(before.saml, outcome.metadata);
    const refreshed = { ...before, metadataRefresh: { refreshedAt: asOf, failedAt: null, error: null } };
    if (Object.keys(changes).length === 0) return { put: refreshed, sync: false, result: { providerChanged: false } };
    const after: SamlSsoConnectionRecord = { ...refreshed, issuer: outcome.metadata.entityId, saml: outcome.metadata, updatedAt: now };
    return { put: after, event: ssoConnectionAuditEvent('sso.connection_changed', after, { changes, refreshed_from: url }), result: { providerChanged: true } };
  };
}
