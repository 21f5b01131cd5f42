import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { registerCertificateExpiry } from '../../../platform/metrics/certificateExpiryGauge.ts';
import { temporalCertificateExpiries } from '../../../platform/temporal/temporalCertificateExpiries.ts';

const dir = mkdtempSync(join(tmpdir(), 'certificates-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A self-signed certificate valid for `days`, made by OpenSSL as an operator's would be; its PEM file. */
function certificate(name: string, days: number): string {
  const file = join(dir, `${name}.pem`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, `${name}.key`), '-out', file, '-days', String(days), '-subj', `/CN=${name}`], { stdio: 'ignore' });
  return file;
}
const notAfterOf = (file: string) => new X509Certificate(readFileSync(file)).validToDate;

describe('the certificates the service holds and their expiry', () => {
  it("are Temporal's client certificate and CA, each with its file's earliest expiry, and none without TLS files", () => {
    const client = certificate('client', 5);
    const soon = certificate('intermediate', 2);
    const late = certificate('root', 400);
    const bundle = join(dir, 'bundle.pem');
    writeFileSync(bundle, readFileSync(late, 'utf8') + readFileSync(soon, 'utf8'));
    expect(temporalCertificateExpiries({ TEMPORAL_TLS_CERT_FILE: client, TEMPORAL_TLS_CA_FILE: bundle })).toEqual([
      { certificate: 'temporal_client', notAfter: notAfterOf(client) },
      { certificate: 'temporal_ca', notAfter: notAfterOf(soon) },
    ]);
    expect(temporalCertificateExpiries({})).toEqual([]);
  });

  it('refuses a file that holds no certificate, naming the setting', () => {
    const empty = join(dir, 'empty.pem');
    writeFileSync(empty, 'not a certificate\n');
    expect(() => temporalCertificateExpiries({ TEMPORAL_TLS_CA_FILE: empty })).toThrow(/TEMPORAL_TLS_CA_FILE holds no PEM certificate/);
  });

  it('are exported as tenant_registry_certificate_expiry_timestamp_seconds, in Unix seconds', async () => {
    const client = certificate('exported', 30);
    const registry = new Registry();
    registerCertificateExpiry(registry, temporalCertificateExpiries({ TEMPORAL_TLS_CERT_FILE: client }));
    const text = await registry.metrics();
    expect(text).toContain(`tenant_registry_certificate_expiry_timestamp_seconds{certificate="temporal_client"} ${notAfterOf(client).getTime() / 1000}`);
  });
});
