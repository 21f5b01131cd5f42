/** Whether a directory's identity provider may call its SCIM endpoint (SPEC-EXTENSIONS §10). */
export const DIRECTORY_STATES = ['active', 'inactive'] as const;
export type DirectoryState = (typeof DIRECTORY_STATES)[number];

/** A tenant's SCIM directory: the bearer tokens its identity provider uses (hashes only) and how its groups map to roles. */
export interface DirectoryRecord {
  id: string;
  tenantId: string;
  state: DirectoryState;
  /** Role slugs by SCIM group displayName. */
  groupRoles: Record<string, string[]>;
  /** SHA-256 of the current token. */
  tokenHash: Buffer;
  /** The token before the last rotation, working until `previousTokenExpiresAt`. */
  previousTokenHash: Buffer | null;
  previousTokenExpiresAt: Date | null;
  lastSyncedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** How many users and groups a directory holds, as its record is answered. */
export interface DirectoryCounts {
  users: number;
  groups: number;
}
