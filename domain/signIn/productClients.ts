/**
 * What a product chose for sign-ins while the registry cannot be asked (SPEC-EXTENSIONS §15): `open`, the identity
 * provider decides from the state last pushed to the user; `closed`, it refuses.
 */
export const SIGN_IN_FAIL_MODES = ['open', 'closed'] as const;
export type SignInFailMode = (typeof SIGN_IN_FAIL_MODES)[number];

/** An identity-provider client that signs a product's users in; a client belongs to at most one product. */
export interface ProductClient {
  clientId: string;
  product: string;
  fail: SignInFailMode;
}

/** Every product's clients, by client id: what a sign-in's client is judged by. */
export type ProductClients = ReadonlyMap<string, ProductClient>;
