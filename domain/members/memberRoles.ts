import { invalidInput } from '../errors.ts';

/** A member's roles and what they grant, as stored and answered: each once, in code-point order. */
export interface GrantedRoles {
  roles: string[];
  /** The union of the roles' permissions. */
  permissions: string[];
}

/**
 * The roles a member is given (SPEC-EXTENSIONS §7): at least one, each a role the tenant has (its own or a shared
 * one; 400 naming the others), a slug named twice counted once.
 */
export function grantedRoles(asked: readonly string[], knownRoles: ReadonlyMap<string, readonly string[]>): GrantedRoles {
  const roles = [...new Set(asked)].sort();
  if (roles.length === 0) throw invalidInput('roles: a member holds at least one role');
  const unknown = roles.filter((slug) => !knownRoles.has(slug));
  if (unknown.length > 0) throw invalidInput(`unknown role${unknown.length === 1 ? '' : 's'} for this tenant: ${unknown.join(', ')}`);
  return { roles, permissions: [...new Set(roles.flatMap((slug) => knownRoles.get(slug)!))].sort() };
}
