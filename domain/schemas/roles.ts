import { z } from 'zod';
import { DateTime, Uuid } from './common.ts';

export const PERMISSION_SLUG_PATTERN = /^[a-z][a-z0-9_-]*(:[a-z0-9_*-]+)*$/;
export const ROLE_SLUG_PATTERN = /^[A-Za-z][A-Za-z0-9_:-]{0,63}$/;

export const PermissionSlug = z
  .string()
  .max(100)
  .regex(PERMISSION_SLUG_PATTERN, 'must match ^[a-z][a-z0-9_-]*(:[a-z0-9_*-]+)*$')
  .meta({ description: 'e.g. members:manage or reports:export' });
export const RoleSlug = z
  .string()
  .regex(ROLE_SLUG_PATTERN, 'must match ^[A-Za-z][A-Za-z0-9_:-]{0,63}$')
  .meta({ description: "what a member's tokens carry in org_roles, e.g. IT_ADMIN" });

const Description = z.string().max(1000);
const RoleName = z.string().min(1).max(255);
const PermissionSlugs = z.array(PermissionSlug).max(100).meta({ description: 'slugs of existing permissions (400 for any other); duplicates count once' });

export const Permission = z
  .object({ slug: PermissionSlug, description: z.string(), created_at: DateTime })
  .meta({ id: 'Permission' });
export type Permission = z.infer<typeof Permission>;

export const PermissionList = z.object({ items: z.array(Permission) }).meta({ id: 'PermissionList' });

export const PermissionCreate = z
  .strictObject({ slug: PermissionSlug, description: Description.optional() })
  .meta({ id: 'PermissionCreate', description: 'slug must be new (409 when a permission of that slug exists)' });
export type PermissionCreate = z.infer<typeof PermissionCreate>;

export const PermissionSlugParams = z.object({ slug: PermissionSlug });

export const Role = z
  .object({
    id: Uuid,
    slug: RoleSlug,
    name: z.string(),
    description: z.string(),
    permissions: z.array(z.string()).meta({ description: 'sorted' }),
    tenant_id: Uuid.nullable().meta({ description: 'null: a role of every tenant' }),
    built_in: z.boolean().meta({ description: "the registry's own (IT_ADMIN, MEMBER): its permissions may change, it cannot be deleted" }),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

export const RoleList = z.object({ items: z.array(Role) }).meta({ id: 'RoleList' });

export const RoleListQuery = z.object({
  tenant_id: Uuid.optional().meta({ description: "that tenant's own roles too (404 for an unknown tenant)" }),
});

export const RoleCreate = z
  .strictObject({
    slug: RoleSlug,
    name: RoleName,
    description: Description.optional(),
    permissions: PermissionSlugs.optional(),
    tenant_id: Uuid.nullable().optional().meta({ description: 'the tenant whose role it is; absent or null: a role of every tenant' }),
  })
  .meta({
    id: 'RoleCreate',
    description:
      "slug must be unique among the shared roles and within the tenant; a tenant's role may not take a shared role's slug, nor a shared role one a tenant uses (409); every permission must exist (400)",
  });
export type RoleCreate = z.infer<typeof RoleCreate>;

export const RolePatch = z
  .strictObject({ name: RoleName.optional(), description: Description.optional(), permissions: PermissionSlugs.optional() })
  .meta({ id: 'RolePatch', description: 'the given fields replace the stored ones; permissions replaces the whole set, every one must exist (400)' });
export type RolePatch = z.infer<typeof RolePatch>;
