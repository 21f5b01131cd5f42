import { z } from 'zod';
import { Uuid } from './common.ts';
import { MEMBER_STATUSES } from '../members/memberRecord.ts';

export const Membership = z
  .object({
    tenant_id: Uuid.optional(),
    tenant_slug: z.string().optional(),
    organization_id: z.string().optional().meta({ description: "the provider's organization the user is in; absent when the user is in none of the tenant (an inactive member)" }),
    org_roles: z.array(z.string()),
    permissions: z.array(z.string()).optional().meta({ description: "source registry: the member's permissions (the union of its roles')" }),
    membership_status: z
      .enum([...MEMBER_STATUSES, 'none'])
      .optional()
      .meta({ description: "source registry: the member's status; none: the provider has the user in the tenant's organization but the registry has no member record" }),
    status: z.string().optional(),
    plan: z.string().optional(),
    products: z.array(z.string()).optional(),
    source: z.enum(['registry', 'idp']).meta({
      description: "registry: a tenant of the registry, roles and status from its member record, status, plan and products from the tenant; idp: an organization the registry does not know, all from the identity provider",
    }),
  })
  .meta({ id: 'Membership' });
export type Membership = z.infer<typeof Membership>;

export const MembershipList = z
  .object({
    items: z.array(Membership),
    partial: z
      .literal(true)
      .optional()
      .meta({ description: "present when the identity provider could not be asked: only the registry's member records are listed, without organization ids" }),
  })
  .meta({ id: 'MembershipList' });
export type MembershipList = z.infer<typeof MembershipList>;
