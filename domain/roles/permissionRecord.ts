/** A permission products define (SPEC-EXTENSIONS §7); the built-in ones are the registry's own and are never deleted. */
export interface PermissionRecord {
  slug: string;
  description: string;
  builtIn: boolean;
  createdAt: Date;
}
