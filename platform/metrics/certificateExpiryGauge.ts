import { Gauge, type Registry } from 'prom-client';
import type { CertificateExpiry } from '../temporal/temporalCertificateExpiries.ts';

/** The certificates the process runs with, by when each expires (deploy/prometheus alerts well before). */
export function registerCertificateExpiry(registry: Registry, expiries: readonly CertificateExpiry[]): void {
  const gauge = new Gauge({
    name: 'tenant_registry_certificate_expiry_timestamp_seconds',
    help: 'When each certificate the process holds expires (Unix time): temporal_client (TEMPORAL_TLS_CERT_FILE), temporal_ca (TEMPORAL_TLS_CA_FILE)',
    labelNames: ['certificate'] as const,
    registers: [registry],
  });
  for (const { certificate, notAfter } of expiries) gauge.set({ certificate }, notAfter.getTime() / 1000);
}
