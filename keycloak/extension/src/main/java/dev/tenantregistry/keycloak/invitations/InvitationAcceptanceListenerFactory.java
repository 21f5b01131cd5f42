package dev.tenantregistry.keycloak.invitations;

import org.keycloak.Config;
import org.keycloak.events.EventListenerProvider;
import org.keycloak.events.EventListenerProviderFactory;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;

/** Global: every realm's events reach it, and it acts only in a flow an invitation's link opened. */
public class InvitationAcceptanceListenerFactory implements EventListenerProviderFactory {

    public static final String ID = "tenant-registry-invitations";

    @Override
    public EventListenerProvider create(KeycloakSession session) {
        return new InvitationAcceptanceListener(session);
    }

    @Override
    public boolean isGlobal() {
        return true;
    }

    @Override
    public void init(Config.Scope config) {
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
