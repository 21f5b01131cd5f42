import { scimPatch, type ScimPatchOperation } from 'scim-patch';
import { AppError } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import type { DirectoryUserRecord } from './directoryUserRecord.ts';
import { keptAnswer } from '../reads/keptAnswer.ts';
import { scimEqFilter } from './scimEqFilter.ts';
import { readOfDirectory } from './directoryReads.ts';
import { listResponse, SCIM_USER_SCHEMA } from './scimDiscovery.ts';
import { selectScimAttributes, type ScimAttributeSelection } from './scimAttributeSelection.ts';
import type { ScimListRequest } from './scimListRequest.ts';
import { ScimError } from './scimError.ts';
import { emailOf, scimUserInput, toScimUser, type ScimUserInput } from './scimUserResource.ts';
import { checkScimPatchPaths, checkScimResourceKeys } from './scimPatchPaths.ts';
import { tenantGovernsAccount } from '../accounts/tenantGovernance.ts';

const DEFAULT_SCIM_USERS_PER_TENANT = 100_000;

/**
 * Refuses (409 uniqueness) a SCIM user whose userName or e-mail is an account the tenant does not govern, or, once
 * linked, any account but its own: a directory links only accounts its tenant governs or new ones, and never moves.
 */
async function requireLinkable({ stores, users }: RegistryContext, directory: DirectoryRecord, before: DirectoryUserRecord | undefined, input: ScimUserInput): Promise<void> {
  if (!users) return;
  const addresses = [...new Set([emailOf(input), emailOf({ userName: input.userName, resource: {} })].filter((a): a is string => a !== undefined))];
  for (const address of addresses) {
    const account = await users.findAccount({ address });
    if (!account) continue;
    const taken = before?.userId ? account.userId !== before.userId : !(await tenantGovernsAccount(stores, directory.tenantId, account));
    if (taken) throw new ScimError('conflict', `${address} is an account this directory may not link`, { scimType: 'uniqueness' });
  }
}

/** The tenant's SCIM users past SCIM_USERS_PER_TENANT_LIMIT: 409 naming limit_reached, nothing made. */
async function requireBelowLimit({ stores, scimUsersPerTenantLimit }: RegistryContext, directory: DirectoryRecord): Promise<void> {
  const limit = scimUsersPerTenantLimit ?? DEFAULT_SCIM_USERS_PER_TENANT;
  if ((await stores.directoryUsers.countOfTenant(directory.tenantId)) >= limit) {
    throw new ScimError('limit_reached', `limit_reached: the tenant's directories hold ${limit} SCIM users, its limit (SCIM_USERS_PER_TENANT_LIMIT)`);
  }
}

/** Who changes a directory's users: the directory itself (SPEC-EXTENSIONS §10: the directory as actor). */
export const directoryActor = (directory: DirectoryRecord): RequestMeta => ({ actorId: `directory:${directory.id}`, actorType: 'directory', recordedBy: `directory:${directory.id}` });

const userEvent = (action: string, directory: DirectoryRecord, user: DirectoryUserRecord, metadata: Record<string, unknown> = {}): AuditAppend => ({
  action,
  tenant_id: directory.tenantId,
  target_id: user.id,
  target_type: 'directory_user',
  target_name: user.userName,
  metadata: { directory_id: directory.id, user_name: user.userName, active: user.active, ...(user.externalId ? { external_id: user.externalId } : {}), ...metadata },
});

const notFoundUser = () => new ScimError('not_found', 'no such User in this directory');

/**
 * A list of the directory's users as JSON: the whole answer is what the cache keeps, so a repeated read (an identity
 * provider's look-up by userName before each change) is one lookup and one write of the kept answer (a page of users
 * is kept as bytes, a look-up's short answer as text: keptAnswer).
 */
export async function listScimUsersJson(context: RegistryContext, directory: DirectoryRecord, request: ScimListRequest, base: string): Promise<string | Buffer> {
  const filter = scimEqFilter(request.filter, ['userName', 'externalId'] as const);
  // userName is unique case-insensitively: its reads share one entry whatever the case asked.
  const value = filter?.attribute === 'userName' ? filter.value.toLowerCase() : (filter?.value ?? '');
  const query = `page|${filter?.attribute ?? ''}|${value}|${request.startIndex}|${request.count}|${request.attributes?.join(',') ?? ''}|${request.excludedAttributes?.join(',') ?? ''}`;
  return readOfDirectory(context, directory.id, query, async () => {
    const { total, users } = await context.stores.directoryUsers.page(directory.id, filter, request.startIndex, request.count);
    return keptAnswer(JSON.stringify(listResponse(users.map((u) => selectScimAttributes(toScimUser(u, base), SCIM_USER_SCHEMA, request)), request.startIndex, total)));
  });
}

export async function getScimUser(context: RegistryContext, directory: DirectoryRecord, id: string, base: string, selection: ScimAttributeSelection = {}) {
  const user = await readOfDirectory(context, directory.id, `user|${id}`, async () => (await context.stores.directoryUsers.find(directory.id, id)) ?? null);
  if (!user) throw notFoundUser();
  return selectScimAttributes(toScimUser(user, base), SCIM_USER_SCHEMA, selection);
}

/** A changed user as answered: read again, for the groups it is in (which the change did not write). */
async function answered({ stores }: RegistryContext, written: DirectoryUserRecord, base: string) {
  return toScimUser((await stores.directoryUsers.find(written.directoryId, written.id)) ?? written, base);
}

/** Writes a user (new or replaced) with its event and the actor's sync; a taken userName is 409 uniqueness. */
async function writeUser(
  { stores, effects }: RegistryContext,
  directory: DirectoryRecord,
  id: string,
  decide: (before: DirectoryUserRecord | undefined, now: Date) => { user: DirectoryUserRecord; event: AuditAppend } | undefined,
): Promise<DirectoryUserRecord> {
  try {
    const written = await stores.directoryUsers.change(directory.id, directory.tenantId, id, directoryActor(directory), (before, now) => {
      const decided = decide(before, now);
      if (!decided) throw notFoundUser();
      return { put: decided.user, event: decided.event, result: decided.user };
    });
    effects.follow({ handOffs: written.handOffs, staleDirectories: [directory.id] });
    return written.result;
  } catch (error) {
    if (error instanceof AppError && error.code === 'conflict') throw new ScimError('conflict', error.message, { scimType: 'uniqueness' });
    throw error;
  }
}

/** What a change of a user is audited as: deactivated when it stops being active, updated otherwise. */
const changeAction = (before: DirectoryUserRecord, after: ScimUserInput) => (before.active && !after.active ? 'directory.user_deactivated' : 'directory.user_updated');

export async function createScimUser(context: RegistryContext, directory: DirectoryRecord, body: unknown, base: string) {
  checkScimResourceKeys(body);
  const input = scimUserInput(body);
  // Two reads of different stores, neither depending on the other: one wait instead of two.
  await Promise.all([requireBelowLimit(context, directory), requireLinkable(context, directory, undefined, input)]);
  const id = crypto.randomUUID();
  const user = await writeUser(context, directory, id, (_, now) => {
    const created: DirectoryUserRecord = { id, directoryId: directory.id, ...input, userId: null, owned: false, deletedAt: null, createdAt: now, updatedAt: now };
    return { user: created, event: userEvent('directory.user_created', directory, created) };
  });
  return toScimUser(user, base);
}

export async function replaceScimUser(context: RegistryContext, directory: DirectoryRecord, id: string, body: unknown, base: string) {
  checkScimResourceKeys(body);
  const input = scimUserInput(body);
  const current = await context.stores.directoryUsers.find(directory.id, id);
  if (current) await requireLinkable(context, directory, current, input);
  const user = await writeUser(context, directory, id, (before, now) => {
    if (!before) return undefined;
    const after: DirectoryUserRecord = { ...before, ...input, updatedAt: now };
    return { user: after, event: userEvent(changeAction(before, input), directory, after) };
  });
  return answered(context, user, base);
}

/** The user after a PatchOp, by `scim-patch`: read as a User resource again. */
function patchedInput(before: DirectoryUserRecord, operations: unknown[]): ScimUserInput {
  let patched: Record<string, unknown>;
  try {
    const current = { schemas: [SCIM_USER_SCHEMA], ...before.resource, userName: before.userName, ...(before.resource.active !== undefined ? { active: before.active } : {}), ...(before.externalId ? { externalId: before.externalId } : {}), meta: { resourceType: 'User' } };
    patched = scimPatch(current as never, operations as ScimPatchOperation[], { mutateDocument: false, treatMissingAsAdd: true }) as unknown as Record<string, unknown>;
  } catch (error) {
    throw patchRefused(error);
  }
  return scimUserInput(patched);
}

/**
 * RFC 7644 §3.5.2 PATCH, in the forms Okta and Microsoft Entra ID send (with and without `path`), by `scim-patch`,
 * once every path is checked against the User schema (scimPatchPaths.ts).
 */
export async function patchScimUser(context: RegistryContext, directory: DirectoryRecord, id: string, body: unknown, base: string) {
  const operations = (body as { Operations?: unknown } | null)?.Operations;
  if (!Array.isArray(operations) || operations.length === 0) throw new ScimError('invalid_input', 'a PatchOp with Operations is required', { scimType: 'invalidSyntax' });
  const normalised = normalisedOperations(operations);
  checkScimPatchPaths(normalised, SCIM_USER_SCHEMA);
  const current = await context.stores.directoryUsers.find(directory.id, id);
  if (current) await requireLinkable(context, directory, current, patchedInput(current, normalised));
  const user = await writeUser(context, directory, id, (before, now) => {
    if (!before) return undefined;
    const input = patchedInput(before, normalised);
    const after: DirectoryUserRecord = { ...before, ...input, updatedAt: now };
    return { user: after, event: userEvent(changeAction(before, input), directory, after) };
  });
  return answered(context, user, base);
}

/** A PATCH `scim-patch` cannot apply: 400 with the scimType it names (noTarget for a remove without path, §3.5.2.2). */
export const patchRefused = (error: unknown) =>
  new ScimError('invalid_input', `the PATCH cannot be applied: ${(error as Error).message}`, { scimType: (error as { scimCode?: string }).scimCode ?? 'invalidValue' });

/** Entra ID writes `op` capitalised ("Replace") and booleans as strings ("False"): read as RFC 7644 has them. */
export function normalisedOperations(operations: unknown[]): unknown[] {
  return operations.map((operation) => {
    const op = operation as { op?: unknown; value?: unknown };
    const value = typeof op.value === 'string' && /^(true|false)$/i.test(op.value) ? op.value.toLowerCase() === 'true' : op.value;
    return { ...op, op: typeof op.op === 'string' ? op.op.toLowerCase() : op.op, value };
  });
}

export async function deleteScimUser(context: RegistryContext, directory: DirectoryRecord, id: string): Promise<void> {
  await writeUser(context, directory, id, (before, now) => {
    if (!before) return undefined;
    const deleted: DirectoryUserRecord = { ...before, deletedAt: now, updatedAt: now };
    return { user: deleted, event: userEvent('directory.user_deleted', directory, deleted) };
  });
}
