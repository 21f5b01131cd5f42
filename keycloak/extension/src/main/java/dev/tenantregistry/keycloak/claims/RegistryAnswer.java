package dev.tenantregistry.keycloak.claims;

/**
 * One answer of the claims call: the token's claims and the registry's decision on the sign-in they are for (null when
 * the registry has no tenant for it, a 404: then the pushed attributes say whether the client is a product's).
 */
record RegistryAnswer(TenantClaims claims, Verdict verdict) {
}
