import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';

export interface TemporalTlsSettings {
  TEMPORAL_TLS: boolean;
  TEMPORAL_TLS_CA_FILE?: string;
  TEMPORAL_TLS_CERT_FILE?: string;
  TEMPORAL_TLS_KEY_FILE?: string;
  TEMPORAL_TLS_SERVER_NAME?: string;
}

/**
 * The TLS of the connection to Temporal, the same for the API's client and the worker: off (the local development
 * server), TLS with the system's or a given CA, or mutual TLS with a client certificate. A certificate without its
 * key (or the reverse) is a configuration mistake, refused at start.
 */
export function temporalTls(settings: TemporalTlsSettings): TLSConfig | undefined {
  const wantsClientCert = settings.TEMPORAL_TLS_CERT_FILE !== undefined || settings.TEMPORAL_TLS_KEY_FILE !== undefined;
  const enabled = settings.TEMPORAL_TLS || settings.TEMPORAL_TLS_CA_FILE !== undefined || wantsClientCert;
  if (!enabled) return undefined;
  if (wantsClientCert && (!settings.TEMPORAL_TLS_CERT_FILE || !settings.TEMPORAL_TLS_KEY_FILE)) {
    throw new Error('TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE go together (mutual TLS)');
  }
  return {
    ...(settings.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: settings.TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(settings.TEMPORAL_TLS_CA_FILE ? { serverRootCACertificate: readFileSync(settings.TEMPORAL_TLS_CA_FILE) } : {}),
    ...(settings.TEMPORAL_TLS_CERT_FILE && settings.TEMPORAL_TLS_KEY_FILE
      ? { clientCertPair: { crt: readFileSync(settings.TEMPORAL_TLS_CERT_FILE), key: readFileSync(settings.TEMPORAL_TLS_KEY_FILE) } }
      : {}),
  };
}
