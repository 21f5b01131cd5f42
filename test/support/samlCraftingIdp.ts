/**
 * A SAML IdP on loopback that answers each AuthnRequest with whatever response the test crafts for it: the hostile
 * corpus's sender. Its SSO endpoint takes Keycloak's AuthnRequest by HTTP-Redirect and answers with the usual
 * self-posting form, so the browser carries the crafted response to the broker as it would a real one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import type { AuthnRequestSeen } from './samlMessages.ts';
import type { SigningKey } from './selfSignedCertificate.ts';

/** What the IdP posts for one request: the response's XML (base64-encoded here) and where it goes. */
export type CraftedAnswer = { xml: string; acsUrl?: string; relayState?: string | null };
export type Crafter = (request: AuthnRequestSeen) => CraftedAnswer;

export type SamlCraftingIdp = {
  readonly entityId: string;
  readonly ssoUrl: string;
  /** The IdP's metadata naming these signing certificates. */
  metadata(keys: SigningKey[]): string;
  /** How the next requests are answered. */
  answerWith(crafter: Crafter): void;
  /** The AuthnRequests received, newest last. */
  readonly requests: AuthnRequestSeen[];
  /** The responses posted, as base64, newest last (a replay takes one of these). */
  readonly posted: string[];
  /** A page that posts `xml` to `acsUrl` without any request before it: an unsolicited response. */
  unsolicitedUrl(answer: CraftedAnswer & { acsUrl: string }): string;
  close(): Promise<void>;
};

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function postForm(acsUrl: string, samlResponse: string, relayState: string | null): string {
  const relay = relayState === null ? '' : `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`;
  return (
    `<!doctype html><html><body onload="document.forms[0].submit()">` +
    `<form method="post" action="${escapeHtml(acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">${relay}</form>` +
    `</body></html>`
  );
}

/** Keycloak's AuthnRequest by HTTP-Redirect: base64 of the raw-deflated XML. */
function authnRequestOf(url: URL): AuthnRequestSeen {
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  const issuer = /<(?:\w+:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '';
  return { id: attribute('ID'), acsUrl: attribute('AssertionConsumerServiceURL'), spEntityId: issuer, relayState: url.searchParams.get('RelayState') ?? '' };
}

export async function startSamlCraftingIdp(): Promise<SamlCraftingIdp> {
  let crafter: Crafter | undefined;
  let unsolicited: CraftedAnswer | undefined;
  const requests: AuthnRequestSeen[] = [];
  const posted: string[] = [];

  const answer = (res: ServerResponse, crafted: CraftedAnswer, acsUrl: string, relayState: string | null) => {
    const encoded = Buffer.from(crafted.xml, 'utf8').toString('base64');
    posted.push(encoded);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(postForm(crafted.acsUrl ?? acsUrl, encoded, crafted.relayState === undefined ? relayState : crafted.relayState));
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/sso' && crafter) {
      const request = authnRequestOf(url);
      requests.push(request);
      answer(res, crafter(request), request.acsUrl, request.relayState);
      return;
    }
    if (url.pathname === '/unsolicited' && unsolicited?.acsUrl) {
      answer(res, unsolicited, unsolicited.acsUrl, null);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${base}/idp`;
  const ssoUrl = `${base}/sso`;

  return {
    entityId,
    ssoUrl,
    requests,
    posted,
    metadata: (keys) =>
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">` +
      `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      keys.map((key) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${key.certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`).join('') +
      `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`,
    answerWith(next) {
      crafter = next;
    },
    unsolicitedUrl(next) {
      unsolicited = next;
      return `${base}/unsolicited`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
