package dev.tenantregistry.keycloak.signin;

import org.keycloak.Config;
import org.keycloak.authentication.RequiredActionFactory;
import org.keycloak.authentication.RequiredActionProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;

/** Registered and enabled by the realm (keycloak/realm-tenant-registry.json, requiredActions). */
public class SignInPolicyActionFactory implements RequiredActionFactory {

    public static final String ID = "tenant-registry-sign-in-policy";

    private static final SignInPolicyAction ACTION = new SignInPolicyAction();

    @Override
    public RequiredActionProvider create(KeycloakSession session) {
        return ACTION;
    }

    @Override
    public String getDisplayText() {
        return "Tenant registry: sign-in policy";
    }

    @Override
    public String getId() {
        return ID;
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
}
