import { IdpError, type IdentityProvider } from '../../identityProvider/identityProvider.ts';
import type { IdpFailureKind } from '../../domain/provisioning/provisioningVocabulary.ts';

type Method = {
  [K in keyof IdentityProvider]: IdentityProvider[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof IdentityProvider];

/**
 * A provider that refuses one of its operations when `refuse` names a kind for the call's arguments (as a Keycloak
 * answering 503 or 401 would), and otherwise is `real`: a fault aimed at one user, wherever its organizations are.
 */
export function refusingProvider<M extends Method>(real: IdentityProvider, method: M, refuse: (...args: Parameters<IdentityProvider[M]>) => IdpFailureKind | undefined): IdentityProvider {
  return new Proxy(real, {
    get(target, property) {
      const value = Reflect.get(target, property) as unknown;
      if (property !== method) return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return async (...args: Parameters<IdentityProvider[M]>) => {
        const kind = refuse(...args);
        if (kind) throw new IdpError(kind, `${String(method)} refused by the test`, kind === 'unauthorized' ? 401 : 503);
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  });
}
