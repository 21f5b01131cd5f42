import { randomUUID } from 'node:crypto';
import { EVERY_TENANT, type TenantReach } from '../access/tenantReach.ts';
import { conflict, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { RoleCreate } from '../schemas/roles.ts';
import type { RoleRecord } from './roleRecord.ts';
import type { RoleCreationFacts } from './roleRepository.ts';
import { requireRoleReach } from './roleReach.ts';
import { requireKnownPermissions, sortedPermissions } from './rolePermissions.ts';

/**
 * The slug rules of SPEC-EXTENSIONS §7: unique among the shared roles and within a tenant; a tenant's role may not
 * take a shared role's slug, nor a new shared role a slug some tenant uses (its members would hold two roles of one
 * name). Undefined when the slug is free for this role.
 */
export function slugConflict(slug: string, tenantId: string | null, slugTakenIn: readonly (string | null)[]): string | undefined {
  if (slugTakenIn.includes(null)) return `a role ${slug} is shared by every tenant`;
  if (tenantId === null) return slugTakenIn.length > 0 ? `a tenant has a role ${slug}; a shared role may not take its slug` : undefined;
  return slugTakenIn.includes(tenantId) ? `the tenant has a role ${slug}` : undefined;
}

/** The creation rule: the tenant exists (404), every permission exists (400), the slug is free (409). */
export function planRoleCreation(input: RoleCreate, id: string, facts: RoleCreationFacts, now: Date): { role: RoleRecord; event: AuditAppend } {
  const tenantId = input.tenant_id ?? null;
  if (!facts.tenantExists) throw notFound('tenant');
  const permissions = sortedPermissions(input.permissions ?? []);
  requireKnownPermissions(permissions, facts.knownPermissions);
  const clash = slugConflict(input.slug, tenantId, facts.slugTakenIn);
  if (clash) throw conflict(clash);
  const role: RoleRecord = {
    id,
    slug: input.slug,
    name: input.name,
    description: input.description ?? '',
    permissions,
    tenantId,
    builtIn: false,
    createdAt: now,
    updatedAt: now,
  };
  return {
    role,
    event: {
      action: 'role.created',
      tenant_id: tenantId ?? undefined,
      target_id: id,
      target_type: 'role',
      target_name: role.slug,
      metadata: { name: role.name, description: role.description, permissions, shared: tenantId === null },
    },
  };
}

/**
 * A tenant's role (the caller must reach the tenant) or, without tenant_id, one shared by every tenant (unbound callers
 * with the shared authority, registry:admin, only).
 */
export async function createRole({ stores }: RegistryContext, input: RoleCreate, meta: RequestMeta, reach: TenantReach = EVERY_TENANT, sharedAuthority = true): Promise<RoleRecord> {
  const tenantId = input.tenant_id ?? null;
  requireRoleReach(reach, tenantId, 'tenant', 'create a role shared by every tenant', sharedAuthority);
  const id = randomUUID();
  return stores.roles.insertRole({ slug: input.slug, tenantId, permissions: sortedPermissions(input.permissions ?? []) }, meta, (facts, now) =>
    planRoleCreation(input, id, facts, now),
  );
}
