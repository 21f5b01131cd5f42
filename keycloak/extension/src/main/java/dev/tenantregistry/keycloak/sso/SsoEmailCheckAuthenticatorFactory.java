package dev.tenantregistry.keycloak.sso;

import java.util.List;
import org.keycloak.Config;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.AuthenticatorFactory;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.ProviderConfigProperty;

/** The step of the realm's SSO broker flows (keycloak/realm-tenant-registry.json) that asks the registry first. */
public class SsoEmailCheckAuthenticatorFactory implements AuthenticatorFactory {

    public static final String ID = "tenant-registry-sso-email-check";

    private static final SsoEmailCheckAuthenticator AUTHENTICATOR = new SsoEmailCheckAuthenticator();

    @Override
    public Authenticator create(KeycloakSession session) {
        return AUTHENTICATOR;
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getDisplayType() {
        return "Tenant registry: SSO e-mail check";
    }

    @Override
    public String getHelpText() {
        return "Refuses a sign-in through a tenant's SSO connection unless the registry allows its e-mail (one of the connection's verified domains). Fails closed.";
    }

    @Override
    public String getReferenceCategory() {
        return null;
    }

    @Override
    public boolean isConfigurable() {
        return false;
    }

    @Override
    public AuthenticationExecutionModel.Requirement[] getRequirementChoices() {
        return new AuthenticationExecutionModel.Requirement[] {AuthenticationExecutionModel.Requirement.REQUIRED};
    }

    @Override
    public boolean isUserSetupAllowed() {
        return false;
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return List.of();
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
