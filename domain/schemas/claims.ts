import { z } from 'zod';
import { IdpUserId, Slug, Uuid } from './common.ts';
import { MEMBER_STATUSES } from '../members/memberRecord.ts';
import { TenantStatus } from './tenant.ts';

export const ClaimsRequest = z
  .object({
    tenant_id: Uuid.optional(),
    tenant_slug: Slug.optional(),
    // The identity provider's user attributes as text; the two lookup keys among them are checked like the top-level ones.
    user_attrs: z.object({ tenant_id: Uuid.optional(), tenant_slug: Slug.optional() }).catchall(z.string()).optional(),
    // With it the roles are the member's in the resolved tenant (SPEC-EXTENSIONS §7), not user_attrs.org_roles.
    user_id: IdpUserId.optional(),
  })
  .meta({
    id: 'ClaimsRequest',
    description:
      'One lookup key is required: tenant_id, tenant_slug, user_attrs.tenant_id or user_attrs.tenant_slug (the first present wins; a present but malformed one is 400), or user_id: then a tenant named in the body is the tenant, else the single active membership of the user, else the user_attrs key if the user is a member there (404 otherwise).',
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
  })
  .meta({ id: 'Claims' });
export type Claims = z.infer<typeof Claims>;
