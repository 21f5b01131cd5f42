import { scimPatch, type ScimPatchOperation } from 'scim-patch';
import { AppError } from '../errors.ts';
import { isoTimestamp } from '../isoTimestamp.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryGroupRecord } from './directoryGroupRecord.ts';
import { scimEqFilter } from './scimEqFilter.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import { listResponse, SCIM_GROUP_SCHEMA } from './scimDiscovery.ts';
import { selectScimAttributes, type ScimAttributeSelection } from './scimAttributeSelection.ts';
import type { ScimListRequest } from './scimListRequest.ts';
import { ScimError } from './scimError.ts';
import { directoryActor, normalisedOperations, patchRefused } from './scimUsers.ts';
import { checkScimPatchPaths, checkScimResourceKeys } from './scimPatchPaths.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFoundGroup = () => new ScimError('not_found', 'no such Group in this directory');
const invalid = (detail: string) => new ScimError('invalid_input', detail, { scimType: 'invalidValue' });

/** A Group resource read and checked: displayName required; members by their `value` (this directory's user ids). */
export function scimGroupInput(body: unknown): { displayName: string; externalId: string | null; members: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a SCIM Group resource');
  const input = body as Record<string, unknown>;
  if (typeof input.displayName !== 'string' || input.displayName.trim() === '' || input.displayName.length > 255) throw invalid('displayName is required (1 to 255 characters)');
  if (input.members !== undefined && input.members !== null && !Array.isArray(input.members)) throw invalid('members must be a list');
  const members = ((input.members as { value?: unknown }[] | undefined) ?? []).map((m) => m?.value);
  if (members.some((value) => typeof value !== 'string')) throw invalid("each member's value must be the id of one of this directory's users");
  // A value that is not an id this endpoint gives names no user, and no one gets a role by it: it is not kept, and the
  // answer lists the members that are (RFC 7643 §2.3.7 leaves referential integrity to the service provider).
  const ids = (members as string[]).filter((value) => UUID.test(value));
  return { displayName: input.displayName.trim(), externalId: typeof input.externalId === 'string' ? input.externalId : null, members: [...new Set(ids)].sort() };
}

export function toScimGroup(group: DirectoryGroupRecord, base: string): Record<string, unknown> {
  return {
    schemas: [SCIM_GROUP_SCHEMA],
    id: group.id,
    displayName: group.displayName,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    members: group.members.map((value) => ({ value, $ref: `${base}/Users/${value}`, type: 'User' })),
    meta: { resourceType: 'Group', created: isoTimestamp(group.createdAt), lastModified: isoTimestamp(group.updatedAt), location: `${base}/Groups/${group.id}` },
  };
}

const groupEvent = (action: string, directory: DirectoryRecord, group: DirectoryGroupRecord, metadata: Record<string, unknown> = {}): AuditAppend => ({
  action,
  tenant_id: directory.tenantId,
  target_id: group.id,
  target_type: 'directory_group',
  target_name: group.displayName,
  metadata: { directory_id: directory.id, display_name: group.displayName, members: group.members.length, ...metadata },
});

export async function listScimGroups({ stores }: RegistryContext, directory: DirectoryRecord, request: ScimListRequest, base: string) {
  const { total, groups } = await stores.directoryGroups.page(directory.id, scimEqFilter(request.filter, ['displayName', 'externalId'] as const), request.startIndex, request.count);
  return listResponse(groups.map((g) => selectScimAttributes(toScimGroup(g, base), SCIM_GROUP_SCHEMA, request)), request.startIndex, total);
}

export async function getScimGroup({ stores }: RegistryContext, directory: DirectoryRecord, id: string, base: string, selection: ScimAttributeSelection = {}) {
  const group = await stores.directoryGroups.find(directory.id, id);
  if (!group) throw notFoundGroup();
  return selectScimAttributes(toScimGroup(group, base), SCIM_GROUP_SCHEMA, selection);
}

async function writeGroup(
  { stores, effects }: RegistryContext,
  directory: DirectoryRecord,
  id: string,
  decide: (before: DirectoryGroupRecord | undefined, now: Date) => { group?: DirectoryGroupRecord; remove?: boolean; event: AuditAppend } | undefined,
): Promise<DirectoryGroupRecord | undefined> {
  try {
    const written = await stores.directoryGroups.change(directory.id, directory.tenantId, id, directoryActor(directory), (before, now) => {
      const decided = decide(before, now);
      if (!decided) throw notFoundGroup();
      return { ...(decided.group ? { put: decided.group } : {}), ...(decided.remove ? { remove: true } : {}), event: decided.event, result: decided.group };
    });
    effects.follow({ handOffs: written.handOffs, staleDirectories: [directory.id] });
    return written.result;
  } catch (error) {
    if (error instanceof AppError && error.code === 'conflict') throw new ScimError('conflict', error.message, { scimType: 'uniqueness' });
    throw error;
  }
}

export async function createScimGroup(context: RegistryContext, directory: DirectoryRecord, body: unknown, base: string) {
  checkScimResourceKeys(body);
  const input = scimGroupInput(body);
  const id = crypto.randomUUID();
  const group = await writeGroup(context, directory, id, (_, now) => {
    const created: DirectoryGroupRecord = { id, directoryId: directory.id, ...input, createdAt: now, updatedAt: now };
    return { group: created, event: groupEvent('directory.group_created', directory, created) };
  });
  return toScimGroup(group!, base);
}

export async function replaceScimGroup(context: RegistryContext, directory: DirectoryRecord, id: string, body: unknown, base: string) {
  checkScimResourceKeys(body);
  const input = scimGroupInput(body);
  const group = await writeGroup(context, directory, id, (before, now) => {
    if (!before) return undefined;
    const after = { ...before, ...input, updatedAt: now };
    return { group: after, event: groupEvent('directory.group_updated', directory, after) };
  });
  return toScimGroup(group!, base);
}

const MEMBERS_PATH = /^\s*(urn:ietf:params:scim:schemas:core:2\.0:Group:)?members\s*$/i;

/**
 * A member is known by its value alone: the members an operation on `members` lists are read as their values, so a
 * remove of a list (Entra ID's, each with `$ref: null`; `scim-patch` removes only equal objects) removes those members.
 */
function membersByValue(operation: unknown): unknown {
  const op = operation as { path?: unknown; value?: unknown };
  if (typeof op.path !== 'string' || !MEMBERS_PATH.test(op.path) || !Array.isArray(op.value)) return operation;
  return { ...op, path: 'members', value: op.value.map((member) => (typeof member === 'object' && member !== null ? { value: (member as { value?: unknown }).value } : member)) };
}

/** PATCH of a Group: members added and removed (`members[value eq "…"]` too), displayName replaced, by `scim-patch`. */
export async function patchScimGroup(context: RegistryContext, directory: DirectoryRecord, id: string, body: unknown, base: string) {
  const operations = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(operations) || operations.length === 0) throw new ScimError('invalid_input', 'a PatchOp with Operations is required', { scimType: 'invalidSyntax' });
  const normalised = normalisedOperations(operations);
  checkScimPatchPaths(normalised, SCIM_GROUP_SCHEMA);
  const group = await writeGroup(context, directory, id, (before, now) => {
    if (!before) return undefined;
    let patched: unknown;
    try {
      const current = { schemas: [SCIM_GROUP_SCHEMA], displayName: before.displayName, ...(before.externalId ? { externalId: before.externalId } : {}), members: before.members.map((value) => ({ value })), meta: { resourceType: 'Group' } };
      patched = scimPatch(current as never, normalised.map(membersByValue) as ScimPatchOperation[], { mutateDocument: false, treatMissingAsAdd: true });
    } catch (error) {
      throw patchRefused(error);
    }
    const after = { ...before, ...scimGroupInput(patched), updatedAt: now };
    return { group: after, event: groupEvent('directory.group_updated', directory, after) };
  });
  return toScimGroup(group!, base);
}

export async function deleteScimGroup(context: RegistryContext, directory: DirectoryRecord, id: string): Promise<void> {
  await writeGroup(context, directory, id, (before) => (before ? { remove: true, event: groupEvent('directory.group_deleted', directory, before) } : undefined));
}
