import { z } from 'zod';
import { SSO_CONNECTION_STATES } from '../sso/ssoConnectionRecord.ts';
import { DateTime, Uuid } from './common.ts';

const IssuerUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
  .max(2000)
  .meta({ description: "the customer's OIDC issuer; its discovery document (/.well-known/openid-configuration) must answer" });
const ConnectionDomains = z.array(z.string().min(1).max(254)).max(100).meta({ description: 'verified domains of the tenant whose users it signs in (409 for any other)' });
/** The longest metadata document taken inline; the request body's own limit (BODY_LIMIT_BYTES) may be lower. */
export const SAML_METADATA_MAX_CHARS = 262_144;
/** The body of an operation that carries SAML metadata: its longest document, every character escaped as JSON may escape it, and the rest. */
export const SAML_METADATA_BODY_LIMIT_BYTES = 8 * SAML_METADATA_MAX_CHARS;
const MetadataXml = z
  .string()
  .min(1)
  .max(SAML_METADATA_MAX_CHARS)
  .meta({ description: "the SAML identity provider's metadata (an EntityDescriptor with an IDPSSODescriptor): 400 when it does not parse, names no signing certificate, or carries a DOCTYPE or entity" });
const MetadataUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
  .max(2000)
  .meta({ description: "where the identity provider's metadata is read, now and every SSO_METADATA_REFRESH_HOURS: held to the issuer address rule (https, its host allowed by SSO_ISSUER_ALLOWED_HOSTS or public)" });

const OidcServiceProvider = z
  .object({ redirect_uri: z.string().meta({ description: "the redirect URI to register for the client at the customer's OIDC provider" }) })
  .meta({ id: 'OidcServiceProvider' });
const SamlServiceProvider = z
  .object({
    entity_id: z.string().meta({ description: "the service provider's entity id: the Audience the IdP's responses must name" }),
    acs_url: z.string().meta({ description: 'the AssertionConsumerService URL (HTTP-POST) responses are posted to' }),
    metadata_url: z.string().meta({ description: "answers the service provider's SAML metadata naming entity_id and acs_url" }),
  })
  .meta({ id: 'SamlServiceProvider' });
const SamlCertificateAnswer = z
  .object({ fingerprint_sha256: z.string().meta({ description: 'SHA-256 of the DER, colon-separated hex' }), not_after: DateTime })
  .meta({ id: 'SamlCertificate' });
const SamlIdentityProviderAnswer = z
  .object({
    idp_entity_id: z.string(),
    sso_url: z.string(),
    certificates: z.array(SamlCertificateAnswer).meta({ description: 'the signing certificates a response may be signed by' }),
    metadata_url: z.string().nullable().meta({ description: 'where the metadata is read again; null for metadata given as XML' }),
    metadata_refreshed_at: DateTime.meta({ description: 'when the metadata was last read' }),
    metadata_refresh_error: z.string().nullable().meta({ description: 'why the last reading of metadata_url since then failed (the connection keeps what it had)' }),
  })
  .meta({ id: 'SamlIdentityProvider' });

const connectionCommon = {
  id: Uuid,
  tenant_id: Uuid,
  domains: z.array(z.string()),
  state: z.enum(SSO_CONNECTION_STATES),
  idp_alias: z.string().meta({ description: "the identity provider's alias in Keycloak" }),
  created_at: DateTime,
  updated_at: DateTime,
};

export const OidcSsoConnection = z
  .object({ ...connectionCommon, protocol: z.literal('oidc'), issuer: z.string(), client_id: z.string(), sp: OidcServiceProvider })
  .meta({ id: 'OidcSsoConnection', description: 'the client secret is stored encrypted and never returned' });
export const SamlSsoConnection = z
  .object({ ...connectionCommon, protocol: z.literal('saml'), saml: SamlIdentityProviderAnswer, sp: SamlServiceProvider })
  .meta({ id: 'SamlSsoConnection' });
export const SsoConnection = z.discriminatedUnion('protocol', [OidcSsoConnection, SamlSsoConnection]).meta({ id: 'SsoConnection' });
export type SsoConnection = z.infer<typeof SsoConnection>;

export const SsoConnectionList = z.object({ items: z.array(SsoConnection) }).meta({ id: 'SsoConnectionList' });

export const OidcSsoConnectionCreate = z
  .strictObject({
    protocol: z.literal('oidc').optional().meta({ description: 'oidc when absent' }),
    issuer: IssuerUrl,
    client_id: z.string().min(1).max(255),
    client_secret: z.string().min(1).max(4096),
    domains: ConnectionDomains.optional(),
  })
  .meta({ id: 'OidcSsoConnectionCreate' });
export type OidcSsoConnectionCreate = z.infer<typeof OidcSsoConnectionCreate>;
export const SamlSsoConnectionCreate = z
  .union([
    z.strictObject({ protocol: z.literal('saml'), metadata_xml: MetadataXml, domains: ConnectionDomains.optional() }).meta({ id: 'SamlSsoConnectionCreateFromXml' }),
    z.strictObject({ protocol: z.literal('saml'), metadata_url: MetadataUrl, domains: ConnectionDomains.optional() }).meta({ id: 'SamlSsoConnectionCreateFromUrl' }),
  ])
  .meta({ id: 'SamlSsoConnectionCreate', description: 'the metadata as XML or as a URL, one of them' });
export type SamlSsoConnectionCreate = z.infer<typeof SamlSsoConnectionCreate>;
export const SsoConnectionCreate = z.union([OidcSsoConnectionCreate, SamlSsoConnectionCreate]).meta({ id: 'SsoConnectionCreate' });
export type SsoConnectionCreate = z.infer<typeof SsoConnectionCreate>;

export const SsoConnectionPatch = z
  .strictObject({
    client_secret: z.string().min(1).max(4096).optional().meta({ description: 'OIDC only (400 for a SAML connection)' }),
    metadata_xml: MetadataXml.optional().meta({ description: 'SAML only: new metadata, which replaces the metadata URL (400 with metadata_url, or for an OIDC connection)' }),
    metadata_url: MetadataUrl.optional().meta({ description: 'SAML only: read now, and again every SSO_METADATA_REFRESH_HOURS (400 with metadata_xml, or for an OIDC connection)' }),
    domains: ConnectionDomains.optional(),
    state: z.enum(SSO_CONNECTION_STATES).optional(),
  })
  .meta({ id: 'SsoConnectionPatch' });
export type SsoConnectionPatch = z.infer<typeof SsoConnectionPatch>;
