/**
 * Reads a SAML identity provider's metadata from its URL (platform/limitedDocumentFetch.ts under the issuer address
 * rule, domain/sso/issuerAddressCheck.ts): the document's text, or why it could not be read (an address refused, a
 * timeout, a status other than 200, a document past the size limit).
 */
export type SamlMetadataSource = (url: string) => Promise<{ text: string } | { failed: string }>;

/** What a metadata reading accepts (the metadata's own media type, and XML as servers often answer it). */
export const SAML_METADATA_MEDIA_TYPES = 'application/samlmetadata+xml, application/xml;q=0.9, text/xml;q=0.8';
