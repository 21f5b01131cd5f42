package dev.tenantregistry.keycloak;

import org.keycloak.Config;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.services.resource.RealmResourceProvider;
import org.keycloak.services.resource.RealmResourceProviderFactory;

/**
 * Registers the extension's realm resource. Keycloak mounts a realm resource provider at /realms/{realm}/{id}, so the
 * id is the path segment the service's adapter calls: /realms/{realm}/tenant-registry/invite.
 */
public class TenantRegistryResourceProviderFactory implements RealmResourceProviderFactory {

    public static final String ID = "tenant-registry";

    @Override
    public RealmResourceProvider create(KeycloakSession session) {
        return new TenantRegistryResourceProvider(session);
    }

    @Override
    public void init(Config.Scope config) {
        // No settings: lifespan, client and redirect come with each request, as for the stock execute-actions e-mail.
    }

    @Override
    public void postInit(KeycloakSessionFactory factory) {
    }

    @Override
    public void close() {
    }

    @Override
    public String getId() {
        return ID;
    }
}
