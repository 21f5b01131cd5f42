import type { IdentityProvider } from './identityProvider.ts';

/** Runs one user's push while no other push into that user runs (store/userAttributeTurns.ts). */
export type UserAttributeTurn = <T>(userId: string, work: () => Promise<T>) => Promise<T>;

/**
 * The provider with every push into a user's attributes taking its turn: pushMembership reads the user, merges one
 * tenant's value and writes the whole user back, so two tenants' actors pushing into one user at once would lose one
 * of the two values.
 */
export function pushesInTurn(idp: IdentityProvider, turn: UserAttributeTurn): IdentityProvider {
  const pushMembership: IdentityProvider['pushMembership'] = (userId, tenantSlug, membership) =>
    turn(userId, () => idp.pushMembership(userId, tenantSlug, membership));
  // A proxy, not a copy: the adapters keep their state in private fields, so every other call goes to the adapter itself.
  return new Proxy(idp, {
    get(target, property) {
      if (property === 'pushMembership') return pushMembership;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
