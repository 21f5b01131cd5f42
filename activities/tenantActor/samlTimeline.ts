import { log } from '@temporalio/activity';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { certificateNoticeEvent, dueCertificateNotice, nextCertificateNoticeAt, type CertificateNotice } from '../../domain/sso/certificateNotices.ts';
import { fetchSamlMetadata } from '../../domain/sso/readSamlMetadata.ts';
import { nextMetadataRefreshAt, planMetadataRefresh } from '../../domain/sso/refreshSamlMetadata.ts';
import type { SamlSsoConnectionRecord } from '../../domain/sso/ssoConnectionRecord.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';

/** A SAML connection's events on the actor's timeline: its metadata URL's next reading, its certificates' next notice. */
export type SamlTimelineEvent = { kind: 'sso_metadata_refresh'; connectionId: string; at: number } | { kind: 'sso_certificate_notice'; connectionId: string; at: number };

async function samlConnectionsOf({ stores }: ActorActivityContext, tenantId: string): Promise<SamlSsoConnectionRecord[]> {
  const connections = (await stores.ssoConnections?.ofTenant(tenantId)) ?? [];
  return connections.filter((c): c is SamlSsoConnectionRecord => c.protocol === 'saml');
}

/** The notices sent for each certificate of the tenant's connections, by connection and fingerprint. */
async function sentNotices({ stores }: ActorActivityContext, tenantId: string): Promise<Map<string, Set<CertificateNotice>>> {
  const sent = new Map<string, Set<CertificateNotice>>();
  for (const n of (await stores.ssoConnections?.sentCertificateNotices(tenantId)) ?? []) {
    const key = `${n.connectionId} ${n.fingerprintSha256}`;
    sent.set(key, (sent.get(key) ?? new Set()).add(n.notice));
  }
  return sent;
}

const noSent: ReadonlySet<CertificateNotice> = new Set();

/** What is still to happen to the tenant's SAML connections: each one's next metadata reading, and each certificate's next notice. */
export async function samlTimelineEvents(context: ActorActivityContext, tenantId: string): Promise<SamlTimelineEvent[]> {
  const connections = await samlConnectionsOf(context, tenantId);
  if (connections.length === 0) return [];
  const sent = await sentNotices(context, tenantId);
  return connections.flatMap((c): SamlTimelineEvent[] => {
    const refreshAt = context.samlMetadata ? nextMetadataRefreshAt(c, context.metadataRefreshHours) : undefined;
    const noticeTimes = c.saml.certificates.flatMap((cert) => nextCertificateNoticeAt(cert.notAfter, sent.get(`${c.id} ${cert.fingerprintSha256}`) ?? noSent) ?? []);
    return [
      ...(refreshAt === undefined ? [] : [{ kind: 'sso_metadata_refresh' as const, connectionId: c.id, at: refreshAt }]),
      ...(noticeTimes.length === 0 ? [] : [{ kind: 'sso_certificate_notice' as const, connectionId: c.id, at: Math.min(...noticeTimes) }]),
    ];
  });
}

/**
 * Reads again each metadata URL due at `asOf` and applies what it gave (planMetadataRefresh): answers the connections
 * whose identity provider changed, which the actor syncs at once (their hand-offs are done by it).
 */
async function refreshDueMetadata(context: ActorActivityContext, connections: SamlSsoConnectionRecord[], asOf: number): Promise<string[]> {
  const { stores } = context;
  const changed: string[] = [];
  for (const c of connections) {
    const at = context.samlMetadata ? nextMetadataRefreshAt(c, context.metadataRefreshHours) : undefined;
    if (at === undefined || at > asOf || !c.metadataUrl) continue;
    const outcome = await fetchSamlMetadata(context.samlMetadata, c.metadataUrl, new Date(asOf));
    if ('failed' in outcome) log.warn('SAML metadata not refreshed; the connection keeps what it had', { tenantId: c.tenantId, connectionId: c.id, error: outcome.failed });
    const written = await stores.ssoConnections!.change({ by: 'id', id: c.id }, SYSTEM_ACTOR, planMetadataRefresh(c.metadataUrl, outcome, new Date(asOf)));
    if (written?.handOffs.length) await stores.outbox?.markDelivered(written.handOffs.map((h) => h.id));
    if (written?.result.providerChanged) changed.push(c.id);
  }
  return changed;
}

/** Appends each certificate notice due at `asOf` (once each: recordCertificateNotice keeps the ones sent). */
async function noticeDueCertificates(context: ActorActivityContext, connections: SamlSsoConnectionRecord[], tenantId: string, asOf: number): Promise<void> {
  const sent = await sentNotices(context, tenantId);
  for (const c of connections) {
    for (const certificate of c.saml.certificates) {
      const due = dueCertificateNotice(certificate.notAfter, sent.get(`${c.id} ${certificate.fingerprintSha256}`) ?? noSent, asOf);
      if (!due) continue;
      const notice = { connectionId: c.id, fingerprintSha256: certificate.fingerprintSha256, notice: due.notice, notAfter: certificate.notAfter, sentAt: new Date(asOf) };
      if (await context.stores.ssoConnections!.recordCertificateNotice(notice, certificateNoticeEvent(c, certificate, due), SYSTEM_ACTOR)) {
        log.info('SAML certificate notice', { tenantId, connectionId: c.id, fingerprint: certificate.fingerprintSha256, notice: due.notice });
      }
    }
  }
}

/**
 * The SAML events due at `asOf`: metadata read again first (a certificate removed gets no notice; a new one is judged
 * at once), then the certificates' notices. Answers the connections the actor syncs.
 */
export async function applyDueSamlEvents(context: ActorActivityContext, tenantId: string, asOf: number): Promise<string[]> {
  if (!context.stores.ssoConnections) return [];
  const changed = await refreshDueMetadata(context, await samlConnectionsOf(context, tenantId), asOf);
  await noticeDueCertificates(context, await samlConnectionsOf(context, tenantId), tenantId, asOf);
  return changed;
}
