package dev.tenantregistry.keycloak;

import org.keycloak.models.KeycloakSession;
import org.keycloak.services.resource.RealmResourceProvider;

/** One per request: hands Keycloak the JAX-RS resource that serves /realms/{realm}/tenant-registry. */
public class TenantRegistryResourceProvider implements RealmResourceProvider {

    private final KeycloakSession session;

    public TenantRegistryResourceProvider(KeycloakSession session) {
        this.session = session;
    }

    @Override
    public Object getResource() {
        return new InviteResource(session);
    }

    @Override
    public void close() {
    }
}
