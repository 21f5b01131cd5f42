import { z } from 'zod';
import { Slug, Uuid } from './common.ts';
import { TenantStatus } from './tenant.ts';

export const ClaimsRequest = z
  .object({
    tenant_id: Uuid.optional(),
    tenant_slug: Slug.optional(),
    // The identity provider's user attributes as text; the two lookup keys among them are checked like the top-level ones.
    user_attrs: z.object({ tenant_id: Uuid.optional(), tenant_slug: Slug.optional() }).catchall(z.string()).optional(),
  })
  .meta({
    id: 'ClaimsRequest',
    description:
      'One lookup key is required: tenant_id, tenant_slug, user_attrs.tenant_id or user_attrs.tenant_slug (the first present wins; a present but malformed one is 400).',
    anyOf: [
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
  })
  .meta({ id: 'Claims' });
export type Claims = z.infer<typeof Claims>;
