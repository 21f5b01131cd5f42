/** A role (SPEC-EXTENSIONS §7): of one tenant, or, with no tenant, shared by every tenant. */
export interface RoleRecord {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** Slugs of its permissions, sorted. */
  permissions: string[];
  /** Null: a role of every tenant. */
  tenantId: string | null;
  builtIn: boolean;
  createdAt: Date;
  updatedAt: Date;
}
