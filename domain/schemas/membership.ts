import { z } from 'zod';
import { Uuid } from './common.ts';

export const Membership = z
  .object({
    tenant_id: Uuid.optional(),
    tenant_slug: z.string().optional(),
    organization_id: z.string(),
    org_roles: z.array(z.string()),
    status: z.string().optional(),
    plan: z.string().optional(),
    products: z.array(z.string()).optional(),
    source: z.enum(['registry', 'idp']).meta({ description: 'registry: status, plan and products come from the registry; idp: all from the identity provider' }),
  })
  .meta({ id: 'Membership' });
export type Membership = z.infer<typeof Membership>;

export const MembershipList = z.object({ items: z.array(Membership) }).meta({ id: 'MembershipList' });
