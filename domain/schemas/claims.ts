import { z } from 'zod';
import { IdpUserId, Slug, Uuid } from './common.ts';
import { MEMBER_STATUSES } from '../members/memberRecord.ts';
import { TenantStatus } from './tenant.ts';
import { SIGN_IN_DECISIONS, SIGN_IN_REFUSALS } from '../signIn/signInDecision.ts';

/** The last second of the year 9999: a larger auth_time is no time. */
const AUTH_TIME_MAX = 253_402_300_799;

/** A client id or identity-provider alias as Keycloak allows them: printable, no spaces. */
const IdpName = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 printable characters without spaces');

export const ClaimsRequest = z
  .object({
    tenant_id: Uuid.optional(),
    tenant_slug: Slug.optional(),
    // The identity provider's user attributes as text; the two lookup keys among them are checked like the top-level ones.
    user_attrs: z.object({ tenant_id: Uuid.optional(), tenant_slug: Slug.optional() }).catchall(z.string()).optional(),
    // With it the roles are the member's in the resolved tenant (SPEC-EXTENSIONS §7), not user_attrs.org_roles.
    user_id: IdpUserId.optional(),
    // SPEC-EXTENSIONS §15: the sign-in's facts; with client_id the answer carries the registry's decision.
    client_id: IdpName.optional().meta({ description: 'the client the token is for; with it (and user_id, which it needs) the answer carries decision' }),
    identity_provider: IdpName.optional().meta({ description: 'the alias of the identity provider the user signed in through, if any' }),
    amr: z.array(z.string().min(1).max(64)).max(32).optional().meta({ description: 'the authentication methods of the sign-in (RFC 8176), e.g. ["pwd", "otp"]' }),
    auth_time: z.int().min(0).max(AUTH_TIME_MAX).optional().meta({ description: 'when the user authenticated, in seconds since the epoch' }),
  })
  .refine((request) => request.client_id === undefined || request.user_id !== undefined, { message: 'client_id needs user_id: a sign-in is a user\'s', path: ['user_id'] })
  .meta({
    id: 'ClaimsRequest',
    description:
      'One lookup key is required: tenant_id, tenant_slug, user_attrs.tenant_id or user_attrs.tenant_slug (the first present wins; a present but malformed one is 400), or user_id: then a tenant named in the body is the tenant, else the single active membership of the user, else the user_attrs key if the user is a member there (404 otherwise). client_id needs user_id.',
    dependentRequired: { client_id: ['user_id'] },
    anyOf: [
      { required: ['user_id'] },
      { required: ['tenant_id'] },
      { required: ['tenant_slug'] },
      { required: ['user_attrs'], properties: { user_attrs: { anyOf: [{ required: ['tenant_id'] }, { required: ['tenant_slug'] }] } } },
    ],
  });
export type ClaimsRequest = z.infer<typeof ClaimsRequest>;

export const Claims = z
  .object({
    tenant_id: Uuid,
    tenant_slug: z.string(),
    org_roles: z.array(z.string()).optional(),
    products: z.array(z.string()).optional(),
    plan: z.string(),
    tenant_status: TenantStatus,
    permissions: z
      .array(z.string())
      .optional()
      .meta({ description: "the member's permissions in the tenant (the union of its roles'); present exactly when the request gave user_id" }),
    membership_status: z
      .enum([...MEMBER_STATUSES, 'none'])
      .optional()
      .meta({ description: "the user's membership of the tenant (none: not a member); present exactly when the request gave user_id" }),
    decision: z
      .enum(SIGN_IN_DECISIONS)
      .optional()
      .meta({ description: "whether the sign-in, code exchange or refresh may go on (SPEC-EXTENSIONS §15); present exactly when the request gave client_id" }),
    reason: z.enum(SIGN_IN_REFUSALS).optional().meta({ description: 'why it may not; present exactly when decision is deny' }),
  })
  .meta({ id: 'Claims' });
export type Claims = z.infer<typeof Claims>;
