import { isoTimestamp } from '../isoTimestamp.ts';
import type { Directory } from '../schemas/directories.ts';
import type { DirectoryCounts, DirectoryRecord } from './directoryRecord.ts';

/** The directory as answered: its SCIM base URL under the service's public base; never a token or its hash. */
export const toDirectory = (d: DirectoryRecord & DirectoryCounts, publicBaseUrl: string): Directory => ({
  id: d.id,
  tenant_id: d.tenantId,
  scim_base_url: `${publicBaseUrl.replace(/\/+$/, '')}/scim/v2/directories/${d.id}`,
  state: d.state,
  group_roles: d.groupRoles,
  users: d.users,
  groups: d.groups,
  last_synced_at: d.lastSyncedAt ? isoTimestamp(d.lastSyncedAt) : null,
  created_at: isoTimestamp(d.createdAt),
});
