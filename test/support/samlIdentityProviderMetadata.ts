/** A customer's SAML identity provider as its metadata describes it: certificates made by OpenSSL, and a server for its metadata URL. */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  /** The DER as base64, as metadata carries it. */
  base64: string;
  fingerprintSha256: string;
  notAfter: Date;
}

/** A self-signed certificate valid for `days` from now (OpenSSL's clock), as an IdP's administrator would make one. */
export function selfSignedCertificate(days: number, name = 'idp'): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'saml-cert-'));
  try {
    const file = join(dir, 'cert.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', file, '-days', String(days), '-subj', `/CN=${name}`], { stdio: 'ignore' });
    const pem = readFileSync(file, 'utf8');
    const x509 = new X509Certificate(pem);
    return { base64: pem.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, ''), fingerprintSha256: x509.fingerprint256, notAfter: x509.validToDate };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface MetadataOptions {
  entityId?: string;
  ssoUrl?: string;
  /** Certificates for signing (KeyDescriptor use="signing"). */
  signing?: TestCertificate[];
  /** Certificates for encryption only. */
  encryption?: TestCertificate[];
  /** Text put before the root element (a DOCTYPE, a comment). */
  prologue?: string;
}

const keyDescriptor = (use: string, c: TestCertificate) =>
  `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${c.base64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;

/** An IdP's SAML 2.0 metadata document, as identity providers publish theirs. */
export function idpMetadataXml(options: MetadataOptions = {}): string {
  const entityId = options.entityId ?? 'https://idp.corp.test/saml';
  const ssoUrl = options.ssoUrl ?? 'https://idp.corp.test/saml/sso';
  return `<?xml version="1.0" encoding="UTF-8"?>
${options.prologue ?? ''}<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    ${(options.signing ?? []).map((c) => keyDescriptor('signing', c)).join('\n    ')}
    ${(options.encryption ?? []).map((c) => keyDescriptor('encryption', c)).join('\n    ')}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}/redirect"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
}

export interface MetadataServer {
  /** The metadata URL, on loopback. */
  url: string;
  /** What the URL answers from now on: a document, or a status without one. */
  serve(answer: { xml: string } | { status: number }): void;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** An HTTP server on loopback that answers one metadata URL with what the test set. */
export async function startMetadataServer(initial: { xml: string } | { status: number }): Promise<MetadataServer> {
  let answer = initial;
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    if (req.url !== '/saml/metadata') return void res.writeHead(404).end();
    if ('status' in answer) return void res.writeHead(answer.status).end();
    res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(answer.xml);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/saml/metadata`,
    serve: (next) => {
      answer = next;
    },
    get requests() {
      return requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
