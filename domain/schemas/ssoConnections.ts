import { z } from 'zod';
import { SSO_CONNECTION_STATES } from '../sso/ssoConnectionRecord.ts';
import { DateTime, Uuid } from './common.ts';

const IssuerUrl = z
  .url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' })
  .max(2000)
  .meta({ description: "the customer's OIDC issuer; its discovery document (/.well-known/openid-configuration) must answer" });
const ConnectionDomains = z.array(z.string().min(1).max(254)).max(100).meta({ description: 'verified domains of the tenant whose users it signs in (409 for any other)' });

export const SsoConnection = z
  .object({
    id: Uuid,
    tenant_id: Uuid,
    protocol: z.literal('oidc'),
    issuer: z.string(),
    client_id: z.string(),
    domains: z.array(z.string()),
    state: z.enum(SSO_CONNECTION_STATES),
    idp_alias: z.string().meta({ description: "the identity provider's alias in Keycloak" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'SsoConnection', description: 'the client secret is stored encrypted and never returned' });
export type SsoConnection = z.infer<typeof SsoConnection>;

export const SsoConnectionList = z.object({ items: z.array(SsoConnection) }).meta({ id: 'SsoConnectionList' });

export const SsoConnectionCreate = z
  .strictObject({
    issuer: IssuerUrl,
    client_id: z.string().min(1).max(255),
    client_secret: z.string().min(1).max(4096),
    domains: ConnectionDomains.optional(),
  })
  .meta({ id: 'SsoConnectionCreate' });
export type SsoConnectionCreate = z.infer<typeof SsoConnectionCreate>;

export const SsoConnectionPatch = z
  .strictObject({
    client_secret: z.string().min(1).max(4096).optional(),
    domains: ConnectionDomains.optional(),
    state: z.enum(SSO_CONNECTION_STATES).optional(),
  })
  .meta({ id: 'SsoConnectionPatch' });
export type SsoConnectionPatch = z.infer<typeof SsoConnectionPatch>;
