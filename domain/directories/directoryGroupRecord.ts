/** A group a directory's SCIM client keeps: its members (SCIM user ids), whose roles its mapping decides. */
export interface DirectoryGroupRecord {
  id: string;
  directoryId: string;
  displayName: string;
  externalId: string | null;
  /** Ids of the directory's SCIM users in it. */
  members: string[];
  createdAt: Date;
  updatedAt: Date;
}
