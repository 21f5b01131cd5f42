/**
 * SAML 2.0 login responses as a test IdP writes them, signed by xml-crypto (a library others wrote, never the code
 * under test), and the pieces the hostile corpus rearranges. Strings, not a DOM: each attack is a precise
 * rearrangement of text that was signed, as an attacker holding one signed response would make it.
 */
import { randomUUID } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import type { SigningKey } from './selfSignedCertificate.ts';

export const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SAMLP_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export const SHA256 = { signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', digest: 'http://www.w3.org/2001/04/xmlenc#sha256' };
export const SHA1 = { signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', digest: 'http://www.w3.org/2000/09/xmldsig#sha1' };
export type SignatureAlgorithms = typeof SHA256;

export const samlId = (): string => `_${randomUUID()}`;
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What Keycloak's AuthnRequest asked for: what a response to it must name. */
export type AuthnRequestSeen = { id: string; acsUrl: string; spEntityId: string; relayState: string };

export type AssertionFields = {
  id?: string;
  issuer: string;
  email: string;
  audience: string;
  recipient: string;
  inResponseTo?: string;
  /** The Conditions' window, ms since the epoch. */
  notBefore?: number;
  notOnOrAfter?: number;
  /** The bearer confirmation's own NotOnOrAfter. */
  confirmationNotOnOrAfter?: number;
  /** Replaces the NameID's text (a comment cut into it, say). */
  nameIdXml?: string;
};

/** An assertion with its namespaces on itself, so that it keeps its exclusive-c14n form wherever it is put. */
export function assertionXml(fields: AssertionFields): string {
  const now = Date.now();
  const id = fields.id ?? samlId();
  const inResponseTo = fields.inResponseTo ? ` InResponseTo="${fields.inResponseTo}"` : '';
  const notBefore = iso(fields.notBefore ?? now - 60_000);
  const notOnOrAfter = iso(fields.notOnOrAfter ?? now + 300_000);
  const confirmationNotOnOrAfter = iso(fields.confirmationNotOnOrAfter ?? fields.notOnOrAfter ?? now + 300_000);
  return (
    `<saml:Assertion xmlns:saml="${SAML_NS}" ID="${id}" Version="2.0" IssueInstant="${iso(now)}">` +
    `<saml:Issuer>${fields.issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${fields.nameIdXml ?? fields.email}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${confirmationNotOnOrAfter}" Recipient="${fields.recipient}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
    `<saml:AudienceRestriction><saml:Audience>${fields.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${samlId()}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    `<saml:AttributeStatement>` +
    `<saml:Attribute Name="firstName"><saml:AttributeValue>Hostile</saml:AttributeValue></saml:Attribute>` +
    `<saml:Attribute Name="lastName"><saml:AttributeValue>Case</saml:AttributeValue></saml:Attribute>` +
    `</saml:AttributeStatement>` +
    `</saml:Assertion>`
  );
}

export type ResponseFields = { id?: string; issuer: string; destination?: string; inResponseTo?: string; content: string };

/** A Response around `content` (assertions and whatever an attack adds), Status Success. */
export function responseXml(fields: ResponseFields): string {
  const id = fields.id ?? samlId();
  const destination = fields.destination ? ` Destination="${fields.destination}"` : '';
  const inResponseTo = fields.inResponseTo ? ` InResponseTo="${fields.inResponseTo}"` : '';
  return (
    `<samlp:Response xmlns:samlp="${SAMLP_NS}" xmlns:saml="${SAML_NS}" ID="${id}" Version="2.0" IssueInstant="${iso(Date.now())}"${destination}${inResponseTo}>` +
    `<saml:Issuer>${fields.issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    fields.content +
    `</samlp:Response>`
  );
}

/** The ID attribute of the outermost element of `xml`. */
export const idOf = (xml: string): string => /^<[^>]*\sID="([^"]+)"/.exec(xml)?.[1] ?? '';

/**
 * Signs the element with `ID="id"` in `xml` (enveloped, exclusive c14n), its Signature placed right after that
 * element's Issuer as SAML's schema has it, KeyInfo carrying the certificate.
 */
export function signElement(xml: string, id: string, key: SigningKey, algorithms: SignatureAlgorithms = SHA256): string {
  const signer = new SignedXml({ privateKey: key.keyPem, publicCert: key.certPem, signatureAlgorithm: algorithms.signature, canonicalizationAlgorithm: EXC_C14N });
  signer.addReference({ xpath: `//*[@ID='${id}']`, digestAlgorithm: algorithms.digest, transforms: [ENVELOPED, EXC_C14N] });
  signer.computeSignature(xml, { prefix: 'ds', location: { reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: 'after' } });
  return signer.getSignedXml();
}

/** The first ds:Signature element of `xml`, and `xml` without it. */
export function splitSignature(xml: string): { signature: string; without: string } {
  const match = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(xml);
  if (!match) throw new Error('no signature to split off');
  return { signature: match[0], without: xml.replace(match[0], '') };
}
