import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { DirectoryPatch } from '../schemas/directories.ts';
import { directoryAuditEvent } from './createDirectory.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import { newDirectoryToken, ROTATION_GRACE_MS } from './directoryToken.ts';

async function reachable({ stores }: RegistryContext, id: string, reach: TenantReach) {
  const found = await stores.directories.find(id);
  if (!found) throw notFound('directory');
  requireReach(reach, found.tenantId, 'directory');
  return found;
}

export async function getDirectory(context: RegistryContext, id: string, reach: TenantReach) {
  return reachable(context, id, reach);
}

export async function listDirectories({ stores }: RegistryContext, tenantId: string) {
  const directories = await stores.directories.ofTenant(tenantId);
  if (!directories) throw notFound('tenant');
  return directories;
}

/** A PATCH of `state` or `group_roles` (`directory.updated` with what changed; nothing changed writes nothing). */
export async function updateDirectory(context: RegistryContext, id: string, patch: DirectoryPatch, meta: RequestMeta, reach: TenantReach) {
  const found = await reachable(context, id, reach);
  const written = await context.stores.directories.change({ by: 'id', id }, meta, (before, now) => {
    if (!before) throw notFound('directory');
    const after: DirectoryRecord = { ...before, state: patch.state ?? before.state, groupRoles: patch.group_roles ?? before.groupRoles, updatedAt: now };
    const changes: Record<string, unknown> = {};
    if (after.state !== before.state) changes.state = { old: before.state, new: after.state };
    if (JSON.stringify(after.groupRoles) !== JSON.stringify(before.groupRoles)) changes.group_roles = { old: before.groupRoles, new: after.groupRoles };
    if (Object.keys(changes).length === 0) return { result: before };
    return { put: after, event: directoryAuditEvent('directory.updated', after, { changes }), result: after };
  });
  if (!written) throw notFound('directory');
  context.effects.follow({ staleDirectories: [id] });
  return { ...written.result, users: found.users, groups: found.groups };
}

/** A new token, answered once; the one before keeps working for ROTATION_GRACE_MS (`directory.token_rotated`). */
export async function rotateDirectoryToken(context: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach) {
  const found = await reachable(context, id, reach);
  const { token, tokenHash } = newDirectoryToken();
  const written = await context.stores.directories.change({ by: 'id', id }, meta, (before, now) => {
    if (!before) throw notFound('directory');
    const previousTokenExpiresAt = new Date(now.getTime() + ROTATION_GRACE_MS);
    const after: DirectoryRecord = { ...before, tokenHash, previousTokenHash: before.tokenHash, previousTokenExpiresAt, updatedAt: now };
    return { put: after, event: directoryAuditEvent('directory.token_rotated', after, { previous_token_expires_at: previousTokenExpiresAt.toISOString() }), result: after };
  });
  if (!written) throw notFound('directory');
  context.effects.follow({ staleDirectories: [id] });
  return { directory: { ...written.result, users: found.users, groups: found.groups }, token };
}

/** Deletes the directory (`directory.deleted`); its tokens stop working at once. */
export async function deleteDirectory(context: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach): Promise<void> {
  await reachable(context, id, reach);
  const written = await context.stores.directories.change({ by: 'id', id }, meta, (before) => {
    if (!before) throw notFound('directory');
    return { remove: true, event: directoryAuditEvent('directory.deleted', before), result: undefined };
  });
  if (!written) throw notFound('directory');
  context.effects.follow({ staleDirectories: [id] });
}
