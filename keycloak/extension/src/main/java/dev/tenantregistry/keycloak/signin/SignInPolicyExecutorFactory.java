package dev.tenantregistry.keycloak.signin;

import java.util.List;
import org.keycloak.Config;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.KeycloakSessionFactory;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.services.clientpolicy.executor.ClientPolicyExecutorProvider;
import org.keycloak.services.clientpolicy.executor.ClientPolicyExecutorProviderFactory;

/** The executor of the realm's client profile tenant-registry-sign-in (keycloak/realm-tenant-registry.json). */
public class SignInPolicyExecutorFactory implements ClientPolicyExecutorProviderFactory {

    public static final String ID = "tenant-registry-sign-in-policy";

    @Override
    public ClientPolicyExecutorProvider create(KeycloakSession session) {
        return new SignInPolicyExecutor(session);
    }

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getHelpText() {
        return "Refuses a code exchange, refresh or password grant (invalid_grant) the tenant registry refuses: frozen or archived tenant, "
                + "inactive member, no entitlement to the client's product, required SSO or second factor, session too old.";
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
