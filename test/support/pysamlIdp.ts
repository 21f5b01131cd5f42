/**
 * A SAML IdP written by others for the Keycloak suite: pysaml2's (test/support/pysamlIdp/idp.py, our HTTP glue around
 * its Server), in its own process on a free loopback port, with a key pair made for it here. Its Python venv is
 * made by test/support/pysamlIdp/install-venv on first use; it signs with Debian's xmlsec1.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { selfSignedCertificate } from './selfSignedCertificate.ts';

const here = resolve(import.meta.dirname, 'pysamlIdp');
const READY_TIMEOUT_MS = 60_000;

export type PysamlUser = { password: string; givenName: string; sn: string };

export type PysamlIdp = {
  readonly metadataUrl: string;
  /** What the customer's IT admin does at its IdP with the connection's SP metadata: registers that SP. */
  registerServiceProvider(metadataXml: string): Promise<void>;
  close(): Promise<void>;
};

export async function startPysamlIdp(users: Record<string, PysamlUser>): Promise<PysamlIdp> {
  const python = (await promisify(execFile)('bash', [join(here, 'install-venv')], { maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
  const dir = await mkdtemp(join(tmpdir(), 'tenant-registry-pysaml-idp-'));
  const key = selfSignedCertificate('pysaml2 test IdP');
  const settings = { key_file: join(dir, 'key.pem'), cert_file: join(dir, 'cert.pem'), sp_metadata_file: join(dir, 'sp-metadata.xml'), users };
  await writeFile(settings.key_file, key.keyPem, { mode: 0o600 });
  await writeFile(settings.cert_file, key.certPem);
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings));

  const child = spawn(python, [join(here, 'idp.py'), join(dir, 'settings.json')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((done) => child.once('exit', done).once('error', () => done(null)));
  const firstLine = new Promise<string>((ready, fail) => {
    createInterface({ input: child.stdout }).once('line', ready);
    void exited.then((code) => fail(new Error(`the pysaml2 IdP exited (${String(code)}) before it listened`)));
    setTimeout(() => fail(new Error(`the pysaml2 IdP did not listen within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS).unref();
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const base = await firstLine.catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return {
    metadataUrl: `${base}/metadata`,
    registerServiceProvider: (metadataXml) => writeFile(settings.sp_metadata_file, metadataXml),
    close,
  };
}
