import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TemporalTlsSettings } from './temporalTls.ts';

/** Which certificate: the client certificate of mutual TLS, or the CA that Temporal's server certificate is checked by. */
export type TemporalCertificate = 'temporal_client' | 'temporal_ca';

export interface CertificateExpiry {
  certificate: TemporalCertificate;
  notAfter: Date;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates the service holds, with the moment each stops being valid: those of TEMPORAL_TLS_CERT_FILE and
 * TEMPORAL_TLS_CA_FILE, read as the connection reads them, once at start (a renewed file takes effect at the next
 * start, so what runs is what expires). A file of several certificates (a chain, a bundle) counts by its earliest.
 */
export function temporalCertificateExpiries(settings: Pick<TemporalTlsSettings, 'TEMPORAL_TLS_CERT_FILE' | 'TEMPORAL_TLS_CA_FILE'>): CertificateExpiry[] {
  const files: [TemporalCertificate, string | undefined][] = [
    ['temporal_client', settings.TEMPORAL_TLS_CERT_FILE],
    ['temporal_ca', settings.TEMPORAL_TLS_CA_FILE],
  ];
  return files.flatMap(([certificate, file]) => {
    if (!file) return [];
    const blocks = readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? [];
    if (blocks.length === 0) throw new Error(`${certificate === 'temporal_client' ? 'TEMPORAL_TLS_CERT_FILE' : 'TEMPORAL_TLS_CA_FILE'} holds no PEM certificate`);
    const notAfter = Math.min(...blocks.map((pem) => new X509Certificate(pem).validToDate.getTime()));
    return [{ certificate, notAfter: new Date(notAfter) }];
  });
}
