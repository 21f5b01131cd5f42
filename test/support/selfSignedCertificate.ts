import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** An RSA key and its self-signed certificate, both PEM: what a SAML IdP signs with and its metadata names. */
export type SigningKey = { keyPem: string; certPem: string; certBase64: string };

/** Made by the machine's openssl (as the Temporal mTLS tests make theirs), valid `days` from now. */
export function selfSignedCertificate(commonName: string, days = 365): SigningKey {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-registry-saml-cert-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', String(days), '-subj', `/CN=${commonName}`, '-sha256'], { stdio: 'ignore' });
    const certPem = readFileSync(cert, 'utf8');
    return { keyPem: readFileSync(key, 'utf8'), certPem, certBase64: certPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
