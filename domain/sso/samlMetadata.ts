import { X509Certificate } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';
import type { SamlCertificate, SamlIdpMetadata } from './ssoConnectionRecord.ts';

const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const SAML2_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BINDINGS = { post: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', redirect: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect' } as const;
/** More signing certificates than a rollover needs is no identity provider's metadata. */
const MAX_CERTIFICATES = 10;
const MAX_ENTITY_ID_LENGTH = 1024;
/** DOM node types (DOM Level 2 Core). */
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

export type SamlMetadataVerdict = { metadata: SamlIdpMetadata } | { refused: string };

/**
 * Reads a SAML identity provider's metadata (SAML 2.0 Metadata): one EntityDescriptor (alone, or the only identity
 * provider of an EntitiesDescriptor) with an IDPSSODescriptor for SAML 2.0, its SingleSignOnService (HTTP-POST
 * preferred, else HTTP-Redirect) and every signing certificate of its KeyDescriptors. Refused, with the reason: what
 * does not parse as XML, any DOCTYPE or entity declaration (before the parser sees it: no entity is ever expanded), an
 * entity id missing or too long, no SSO service of those bindings, no signing certificate, a certificate that does not
 * parse, or a validUntil passed at `now`. The metadata's own signature is not checked: the tenant vouches for what it
 * gave, and the certificates are what every response is checked against afterwards.
 */
export function parseSamlMetadata(xml: string, now: Date): SamlMetadataVerdict {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return { refused: 'the metadata carries a DOCTYPE or an entity declaration' };
  const root = documentElementOf(xml);
  if ('refused' in root) return root;
  const entity = identityProviderEntity(root.element);
  if ('refused' in entity) return entity;
  return metadataOf(entity.element, entity.idp, now);
}

function documentElementOf(xml: string): { element: Element } | { refused: string } {
  let problem: string | undefined;
  try {
    const document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') problem ??= message;
      },
    }).parseFromString(xml, 'text/xml');
    if (problem) return { refused: `the metadata does not parse as XML: ${firstLine(problem)}` };
    if (document.doctype) return { refused: 'the metadata carries a DOCTYPE or an entity declaration' };
    const element = document.documentElement;
    if (!element) return { refused: 'the metadata has no root element' };
    return { element };
  } catch (error) {
    return { refused: `the metadata does not parse as XML: ${firstLine(problem ?? (error as Error).message)}` };
  }
}

/** The EntityDescriptor of the identity provider: the root, or the only one with an IDPSSODescriptor of an EntitiesDescriptor. */
function identityProviderEntity(root: Element): { element: Element; idp: Element } | { refused: string } {
  const entities = isMetadata(root, 'EntityDescriptor') ? [root] : isMetadata(root, 'EntitiesDescriptor') ? childrenOf(root, 'EntityDescriptor') : [];
  if (entities.length === 0) return { refused: 'the metadata is no SAML 2.0 EntityDescriptor' };
  const providers = entities.flatMap((element) => {
    const idp = childrenOf(element, 'IDPSSODescriptor').find((d) => (d.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML2_PROTOCOL));
    return idp ? [{ element, idp }] : [];
  });
  if (providers.length === 0) return { refused: 'the metadata names no SAML 2.0 identity provider (IDPSSODescriptor)' };
  if (providers.length > 1) return { refused: `the metadata names ${providers.length} identity providers, not one` };
  return providers[0]!;
}

function metadataOf(entity: Element, idp: Element, now: Date): SamlMetadataVerdict {
  const entityId = (entity.getAttribute('entityID') ?? '').trim();
  if (entityId === '' || entityId.length > MAX_ENTITY_ID_LENGTH) return { refused: `the metadata's entityID is missing or longer than ${MAX_ENTITY_ID_LENGTH} characters` };
  for (const element of [entity, idp]) {
    const validUntil = element.getAttribute('validUntil');
    if (validUntil && !(Date.parse(validUntil) > now.getTime())) return { refused: `the metadata is valid only until ${validUntil}` };
  }
  const services = childrenOf(idp, 'SingleSignOnService');
  const chosen = (['post', 'redirect'] as const).flatMap((binding) => {
    const service = services.find((s) => s.getAttribute('Binding') === BINDINGS[binding] && s.getAttribute('Location'));
    return service ? [{ binding, location: service.getAttribute('Location')!.trim() }] : [];
  })[0];
  if (!chosen) return { refused: 'the metadata names no SingleSignOnService with the HTTP-POST or HTTP-Redirect binding' };
  const url = URL.parse(chosen.location);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return { refused: `the SingleSignOnService location ${chosen.location} is not an http(s) URL without credentials` };
  const certificates = signingCertificates(idp);
  if ('refused' in certificates) return certificates;
  return {
    metadata: {
      entityId,
      ssoUrl: url.href,
      ssoBinding: chosen.binding,
      wantAuthnRequestsSigned: idp.getAttribute('WantAuthnRequestsSigned') === 'true',
      certificates: certificates.list,
    },
  };
}

/** The certificates of the KeyDescriptors for signing (`use="signing"`, or no use: both), each once, in order. */
function signingCertificates(idp: Element): { list: SamlCertificate[] } | { refused: string } {
  const list: SamlCertificate[] = [];
  for (const descriptor of childrenOf(idp, 'KeyDescriptor')) {
    const use = descriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const keyInfo of childrenOf(descriptor, 'KeyInfo', DSIG_NS)) {
      for (const data of childrenOf(keyInfo, 'X509Data', DSIG_NS)) {
        for (const holder of childrenOf(data, 'X509Certificate', DSIG_NS)) {
          const certificate = certificateOf(textOf(holder));
          if (!certificate) return { refused: 'the metadata names a signing certificate that does not parse as X.509' };
          if (!list.some((c) => c.fingerprintSha256 === certificate.fingerprintSha256)) list.push(certificate);
        }
      }
    }
  }
  if (list.length === 0) return { refused: 'the metadata names no signing certificate' };
  if (list.length > MAX_CERTIFICATES) return { refused: `the metadata names ${list.length} signing certificates (at most ${MAX_CERTIFICATES})` };
  return { list };
}

/** A certificate from the base64 of its DER, as X509Certificate reads it; undefined when it is none. */
export function certificateOf(base64: string): SamlCertificate | undefined {
  const body = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  try {
    const x509 = new X509Certificate(Buffer.from(body, 'base64'));
    const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
    return { pem, fingerprintSha256: x509.fingerprint256, notAfter: x509.validToDate };
  } catch {
    return undefined;
  }
}

/** Text of an element, CDATA included and comments left out (a comment inside a value is not part of it). */
function textOf(element: Element): string {
  let text = '';
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) text += node.nodeValue ?? '';
  }
  return text;
}

const isMetadata = (element: Element, localName: string, namespace = METADATA_NS) => element.namespaceURI === namespace && element.localName === localName;

function childrenOf(element: Element, localName: string, namespace = METADATA_NS): Element[] {
  const found: Element[] = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === ELEMENT_NODE && isMetadata(node as Element, localName, namespace)) found.push(node as Element);
  }
  return found;
}

const firstLine = (message: string) => message.split('\n')[0]!.slice(0, 200);
