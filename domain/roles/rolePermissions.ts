import { invalidInput } from '../errors.ts';

/**
 * A role's permissions as stored and answered: each once, in code-point order (the store sorts with the C
 * collation, so a listing and a creation's answer agree whatever the database's locale).
 */
export const sortedPermissions = (slugs: readonly string[]): string[] => [...new Set(slugs)].sort();

/** A role is given only permissions that exist (SPEC-EXTENSIONS §7: 400 otherwise). */
export function requireKnownPermissions(asked: readonly string[], known: ReadonlySet<string>): void {
  const unknown = asked.filter((slug) => !known.has(slug));
  if (unknown.length > 0) throw invalidInput(`unknown permission${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}`);
}
