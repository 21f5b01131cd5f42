import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../../platform/freePort.ts';
import { eventually } from '../../support/eventually.ts';
import { spawnApi, type ApiProcess } from '../../support/spawnApi.ts';
import { spawnWorker } from '../../support/spawnWorker.ts';
import { startTlsTerminatingProxy } from '../../support/tlsTerminatingProxy.ts';

/**
 * The API and the worker as they run against a Temporal with mutual TLS (TEMPORAL_TLS_CA_FILE, _CERT_FILE,
 * _KEY_FILE, _SERVER_NAME), with certificates made by OpenSSL as an operator's CA would make them: both connect, and
 * both export when their certificates expire, for the certificate alerts.
 */
const dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
/** A certificate of `name`, `days` long, signed by the test CA, for `usage` (serverAuth or clientAuth). */
function signed(name: string, days: number, usage: string, subjectAltName?: string) {
  openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file(`${name}.key`), '-out', file(`${name}.csr`), '-subj', `/CN=${name}`);
  writeFileSync(file(`${name}.ext`), `basicConstraints=CA:FALSE\nextendedKeyUsage=${usage}\n${subjectAltName ? `subjectAltName=${subjectAltName}\n` : ''}`);
  openssl('x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file(`${name}.pem`), '-days', String(days), '-extfile', file(`${name}.ext`));
}
const notAfterSeconds = (name: string) => new X509Certificate(readFileSync(file(`${name}.pem`))).validToDate.getTime() / 1000;

let temporal: Awaited<ReturnType<typeof startTlsTerminatingProxy>>;
let api: ApiProcess;
let worker: ChildProcess;
const ports = { api: 0, worker: 0 };

beforeAll(async () => {
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '40', '-subj', '/CN=test-ca',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  signed('temporal-server', 30, 'serverAuth', 'DNS:temporal.test');
  signed('tenant-registry', 10, 'clientAuth');
  const [host, port] = inject('temporalAddress').split(':') as [string, string];
  temporal = await startTlsTerminatingProxy(
    { host, port: Number(port) },
    { key: readFileSync(file('temporal-server.key'), 'utf8'), cert: readFileSync(file('temporal-server.pem'), 'utf8'), ca: readFileSync(file('ca.pem'), 'utf8') },
  );
  const tls = {
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TLS_CA_FILE: file('ca.pem'),
    TEMPORAL_TLS_CERT_FILE: file('tenant-registry.pem'),
    TEMPORAL_TLS_KEY_FILE: file('tenant-registry.key'),
    TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
  };
  const taskQueue = `mtls-${randomUUID()}`;
  ports.api = await freePort();
  ports.worker = await freePort();
  worker = spawnWorker(taskQueue, { ...tls, WORKER_METRICS_PORT: String(ports.worker) });
  api = await spawnApi({ ...tls, TEMPORAL_TASK_QUEUE: taskQueue, METRICS_PORT: String(ports.api) });
}, 150_000);
afterAll(async () => {
  api?.child.kill('SIGTERM');
  worker?.kill('SIGTERM');
  await temporal?.close();
  rmSync(dir, { recursive: true, force: true });
});

const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
const expiryOf = (text: string, certificate: string) =>
  Number(new RegExp(`^tenant_registry_certificate_expiry_timestamp_seconds\\{certificate="${certificate}"\\} (\\S+)$`, 'm').exec(text)?.[1]);

describe('Temporal over mutual TLS', () => {
  it('is reached by the worker and the API with their client certificate, the server checked by the CA and server name', async () => {
    await eventually(async () => (await fetch(`http://127.0.0.1:${ports.worker}/readyz`).catch(() => undefined))?.status === 200, 90_000, 'the worker polling through TLS');
    await eventually(async () => /^tenant_registry_readiness_check_up\{check="temporal"\} 1$/m.test(await scrape(ports.api)), 30_000, "the API's temporal check up");
  });

  it('exports when the client certificate and the CA expire, on the API and the worker alike', async () => {
    for (const port of [ports.api, ports.worker]) {
      const text = await scrape(port);
      expect(expiryOf(text, 'temporal_client')).toBe(notAfterSeconds('tenant-registry'));
      expect(expiryOf(text, 'temporal_ca')).toBe(notAfterSeconds('ca'));
    }
  });
});
