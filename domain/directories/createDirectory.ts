import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DirectoryRecord } from './directoryRecord.ts';
import { newDirectoryToken } from './directoryToken.ts';
import { requireBelowLimit } from '../tenants/tenantLimits.ts';

/** A directory's event: in its tenant, targeting the directory; never a token. */
export function directoryAuditEvent(action: string, d: Pick<DirectoryRecord, 'id' | 'tenantId' | 'state' | 'groupRoles'>, metadata: Record<string, unknown> = {}): AuditAppend {
  return { action, tenant_id: d.tenantId, target_id: d.id, target_type: 'directory', metadata: { state: d.state, group_roles: d.groupRoles, ...metadata } };
}

/** Makes a directory for the tenant below its limit of directories (409 `limit_reached`): active, no group mapped, its token answered this once (`directory.created`). */
export async function createDirectory({ stores, tenantLimits }: RegistryContext, tenantId: string, groupRoles: Record<string, string[]> | undefined, meta: RequestMeta) {
  const { token, tokenHash } = newDirectoryToken();
  const written = await stores.directories.change({ by: 'new', tenantId }, meta, (_, now, ofTenant) => {
    requireBelowLimit(tenantLimits, 'directories', ofTenant);
    const directory: DirectoryRecord = {
      id: crypto.randomUUID(),
      tenantId,
      state: 'active',
      groupRoles: groupRoles ?? {},
      tokenHash,
      previousTokenHash: null,
      previousTokenExpiresAt: null,
      lastSyncedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    return { put: directory, event: directoryAuditEvent('directory.created', directory), result: directory };
  });
  if (!written) throw notFound('tenant');
  return { directory: { ...written.result, users: 0, groups: 0 }, token };
}
