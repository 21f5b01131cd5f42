import { DOMImplementation, XMLSerializer } from '@xmldom/xmldom';
import type { SsoServiceProvider } from './ssoServiceProvider.ts';

const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';

/** The media type of SAML metadata (SAML 2.0 Metadata §4.1.1). */
export const SAML_METADATA_MEDIA_TYPE = 'application/samlmetadata+xml';

/**
 * The service provider's SAML metadata: its entity id, and its AssertionConsumerService for HTTP-POST, wanting signed
 * assertions and e-mail NameIDs, what the customer's identity provider imports (the simulated provider's descriptor, as
 * Keycloak's broker descriptor is Keycloak's).
 */
export function serviceProviderMetadataXml(sp: Pick<SsoServiceProvider, 'entityId' | 'acsUrl'>): string {
  const document = new DOMImplementation().createDocument(METADATA_NS, 'md:EntityDescriptor', null);
  const entity = document.documentElement!;
  entity.setAttribute('entityID', sp.entityId);
  const descriptor = document.createElementNS(METADATA_NS, 'md:SPSSODescriptor');
  descriptor.setAttribute('AuthnRequestsSigned', 'false');
  descriptor.setAttribute('WantAssertionsSigned', 'true');
  descriptor.setAttribute('protocolSupportEnumeration', 'urn:oasis:names:tc:SAML:2.0:protocol');
  const nameIdFormat = document.createElementNS(METADATA_NS, 'md:NameIDFormat');
  nameIdFormat.appendChild(document.createTextNode('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'));
  descriptor.appendChild(nameIdFormat);
  const acs = document.createElementNS(METADATA_NS, 'md:AssertionConsumerService');
  acs.setAttribute('Binding', 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
  acs.setAttribute('Location', sp.acsUrl);
  acs.setAttribute('index', '0');
  acs.setAttribute('isDefault', 'true');
  descriptor.appendChild(acs);
  entity.appendChild(descriptor);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(document)}\n`;
}
