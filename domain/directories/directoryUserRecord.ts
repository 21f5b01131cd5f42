/** A user a directory's SCIM client keeps, with the SCIM resource as last written and the provider's user it became. */
export interface DirectoryUserRecord {
  id: string;
  directoryId: string;
  userName: string;
  externalId: string | null;
  active: boolean;
  /** The user's SCIM attributes as the client wrote them (userName, name, displayName, emails, active, externalId). */
  resource: Record<string, unknown>;
  /** The identity provider's user, once the tenant's actor made or found it. */
  userId: string | null;
  /** The provider's user was made for this directory (only such a user is disabled by `active: false`). */
  owned: boolean;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The directory's groups it is in, as a read found them (never written with the user). */
  groups?: { id: string; displayName: string }[];
}
