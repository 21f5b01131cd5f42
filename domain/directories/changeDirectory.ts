import { requireReach, type TenantReach } from '../access/tenantReach.ts';
import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { DirectoryPatch } from '../schemas/directories.ts';
import { directoryAuditEvent } from './createDirectory.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import { newDirectoryToken, ROTATION_GRACE_MS } from './directoryToken.ts';
import { changeDirectoryMember } from './changeDirectoryMember.ts';

/** A member the directory's deletion takes away, as a deleted SCIM user of its would. */
const leaverOf = (directory: DirectoryRecord, userId: string) => ({
  tenantId: directory.tenantId,
  directoryId: directory.id,
  userId,
  email: '',
  name: '',
  active: false,
  deleted: true,
  askedRoles: [],
});

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
  // The members of the groups whose mapping changed get their roles again (SPEC-EXTENSIONS §13).
  const remapped = [...new Set([...Object.keys(found.groupRoles), ...Object.keys(written.result.groupRoles)])].filter(
    (name) => JSON.stringify(found.groupRoles[name] ?? []) !== JSON.stringify(written.result.groupRoles[name] ?? []),
  );
  const handOffs = await context.stores.directoryUsers.resyncGroupMembers(id, found.tenantId, remapped);
  context.effects.follow({ handOffs, staleDirectories: [id] });
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

/**
 * Deletes the directory (`directory.deleted`); its tokens stop working at once. First the members it made go, as
 * deleting each of its users would (`member.removed`, their side synced by the tenant's actor); members it did not
 * make stay. A failure part-way leaves the directory, so deleting it again finishes the work.
 */
export async function deleteDirectory(context: RegistryContext, id: string, meta: RequestMeta, reach: TenantReach): Promise<void> {
  const found = await reachable(context, id, reach);
  for (const { userId } of await context.stores.directoryUsers.linkedAccounts(id)) {
    const removed = await changeDirectoryMember(context.stores, leaverOf(found, userId), meta);
    context.effects.follow({ handOffs: removed?.handOffs ?? [] });
  }
  const written = await context.stores.directories.change({ by: 'id', id }, meta, (before) => {
    if (!before) throw notFound('directory');
    return { remove: true, event: directoryAuditEvent('directory.deleted', before), result: undefined };
  });
  if (!written) throw notFound('directory');
  context.effects.follow({ staleDirectories: [id] });
}
