import { AppError } from '../errors.ts';

/**
 * What every tenant shares (the shared roles, the permissions catalog) changes only for the registry's administrator
 * (SPEC-EXTENSIONS §13): a token with `registry:admin`, or any caller when authentication is off. A tenant's
 * operator (members:write) changes its own tenant's roles, never what the other tenants' people hold.
 */
export function requireSharedAuthority(sharedAuthority: boolean, operation: string): void {
  if (!sharedAuthority) throw new AppError('forbidden', `this operation needs a token with the scope registry:admin: only it may ${operation}`);
}
