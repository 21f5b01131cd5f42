import { isoTimestamp } from '../isoTimestamp.ts';
import type { Role } from '../schemas/roles.ts';
import type { RoleRecord } from './roleRecord.ts';

export const toRole = (r: RoleRecord): Role => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  description: r.description,
  permissions: r.permissions,
  tenant_id: r.tenantId,
  built_in: r.builtIn,
  created_at: isoTimestamp(r.createdAt),
  updated_at: isoTimestamp(r.updatedAt),
});
