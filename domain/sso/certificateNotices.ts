import type { AuditAppend } from '../schemas/audit.ts';
import { ssoConnectionAuditEvent } from './ssoConnectionAuditEvent.ts';
import type { SamlCertificate, SamlSsoConnectionRecord } from './ssoConnectionRecord.ts';

const DAY_MS = 24 * 3600_000;

/** The notices of a signing certificate's expiry, in the order they come (SPEC-EXTENSIONS §14). */
export const CERTIFICATE_NOTICES = [
  { notice: 'expiring_30d', daysBefore: 30 },
  { notice: 'expiring_7d', daysBefore: 7 },
  { notice: 'expiring_1d', daysBefore: 1 },
  { notice: 'expired', daysBefore: 0 },
] as const;
export type CertificateNotice = (typeof CERTIFICATE_NOTICES)[number]['notice'];

/** The windows of one certificate: each notice's from when it is due. */
const windowsOf = (notAfter: Date) => CERTIFICATE_NOTICES.map(({ notice, daysBefore }) => ({ notice, daysBefore, at: notAfter.getTime() - daysBefore * DAY_MS }));

/** The windows still to come: those after the last one whose notice was sent (an earlier one skipped is never sent). */
function windowsLeft(notAfter: Date, sent: ReadonlySet<CertificateNotice>) {
  const windows = windowsOf(notAfter);
  const lastSent = windows.findLastIndex((w) => sent.has(w.notice));
  return windows.slice(lastSent + 1);
}

/**
 * The notice due at `asOf`: the window the certificate is in then, unless its notice (or a later one) was sent. A
 * certificate first seen inside a window, or an actor that slept through one, gets that window's notice at once,
 * never the earlier ones.
 */
export function dueCertificateNotice(notAfter: Date, sent: ReadonlySet<CertificateNotice>, asOf: number): { notice: CertificateNotice; daysBefore: number; at: number } | undefined {
  return windowsLeft(notAfter, sent).filter((w) => w.at <= asOf).at(-1);
}

/** When the actor is to look at the certificate next: the start of the first window left (past, when one is due now); none after `expired`. */
export function nextCertificateNoticeAt(notAfter: Date, sent: ReadonlySet<CertificateNotice>): number | undefined {
  return windowsLeft(notAfter, sent)[0]?.at;
}

/** The event of a notice: `sso.certificate_expiring` with the days before, or `sso.certificate_expired`. */
export function certificateNoticeEvent(connection: SamlSsoConnectionRecord, certificate: SamlCertificate, notice: { notice: CertificateNotice; daysBefore: number }): AuditAppend {
  const certificateFields = { fingerprint_sha256: certificate.fingerprintSha256, not_after: certificate.notAfter.toISOString() };
  if (notice.notice === 'expired') return ssoConnectionAuditEvent('sso.certificate_expired', connection, certificateFields);
  return ssoConnectionAuditEvent('sso.certificate_expiring', connection, { ...certificateFields, days_before: notice.daysBefore });
}
