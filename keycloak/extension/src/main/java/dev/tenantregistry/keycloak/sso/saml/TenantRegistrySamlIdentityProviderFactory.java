package dev.tenantregistry.keycloak.sso.saml;

import org.keycloak.Config;
import org.keycloak.broker.saml.SAMLIdentityProvider;
import org.keycloak.broker.saml.SAMLIdentityProviderConfig;
import org.keycloak.broker.saml.SAMLIdentityProviderFactory;
import org.keycloak.models.IdentityProviderModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.saml.validators.DestinationValidator;

/**
 * The identity provider type of tenants' SAML connections (identityProvider/keycloakSamlProvider.ts writes it):
 * Keycloak's SAML broker, configuration and all, with the response checks of CheckedSamlEndpoint in front.
 */
public class TenantRegistrySamlIdentityProviderFactory extends SAMLIdentityProviderFactory {

    public static final String ID = "tenant-registry-saml";

    private DestinationValidator destinationValidator;

    @Override
    public String getId() {
        return ID;
    }

    @Override
    public String getName() {
        return "Tenant registry SAML";
    }

    @Override
    public void init(Config.Scope config) {
        super.init(config);
        destinationValidator = DestinationValidator.forProtocolMap(config.getArray("knownProtocols"));
    }

    @Override
    public SAMLIdentityProvider create(KeycloakSession session, IdentityProviderModel model) {
        return new TenantRegistrySamlIdentityProvider(session, new SAMLIdentityProviderConfig(model), destinationValidator);
    }
}
