import { isoTimestamp } from '../isoTimestamp.ts';
import type { Permission } from '../schemas/roles.ts';
import type { PermissionRecord } from './permissionRecord.ts';

export const toPermission = (p: PermissionRecord): Permission => ({ slug: p.slug, description: p.description, created_at: isoTimestamp(p.createdAt) });
