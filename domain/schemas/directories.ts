import { z } from 'zod';
import { DIRECTORY_STATES } from '../directories/directoryRecord.ts';
import { DateTime, Uuid } from './common.ts';
import { RoleSlug } from './roles.ts';

const GroupRoles = z
  .record(z.string().min(1).max(255), z.array(RoleSlug).max(100))
  .meta({ description: "role slugs by SCIM group displayName: a member of the group gets them (besides the tenant's default role)" });

export const Directory = z
  .object({
    id: Uuid,
    tenant_id: Uuid,
    scim_base_url: z.string().meta({ description: "what the customer's identity provider is given as the SCIM endpoint" }),
    state: z.enum(DIRECTORY_STATES),
    group_roles: GroupRoles,
    users: z.int(),
    groups: z.int(),
    last_synced_at: DateTime.nullable(),
    created_at: DateTime,
  })
  .meta({ id: 'Directory' });
export type Directory = z.infer<typeof Directory>;

export const DirectoryWithToken = Directory.extend({
  token: z.string().meta({ description: "the bearer token the customer's identity provider uses, shown this once (only its hash is kept)" }),
}).meta({ id: 'DirectoryWithToken' });

export const DirectoryList = z.object({ items: z.array(Directory) }).meta({ id: 'DirectoryList' });

export const DirectoryCreate = z.strictObject({ group_roles: GroupRoles.optional() }).meta({ id: 'DirectoryCreate' });

export const DirectoryPatch = z
  .strictObject({ state: z.enum(DIRECTORY_STATES).optional(), group_roles: GroupRoles.optional() })
  .meta({ id: 'DirectoryPatch' });
export type DirectoryPatch = z.infer<typeof DirectoryPatch>;
