package dev.tenantregistry.keycloak.sso.saml;

import org.keycloak.broker.provider.UserAuthenticationIdentityProvider;
import org.keycloak.broker.saml.SAMLIdentityProvider;
import org.keycloak.broker.saml.SAMLIdentityProviderConfig;
import org.keycloak.events.EventBuilder;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.saml.validators.DestinationValidator;

/** Keycloak's SAML identity provider whose broker endpoint checks a response first (CheckedSamlEndpoint). */
public class TenantRegistrySamlIdentityProvider extends SAMLIdentityProvider {

    private final DestinationValidator destinationValidator;

    public TenantRegistrySamlIdentityProvider(KeycloakSession session, SAMLIdentityProviderConfig config, DestinationValidator destinationValidator) {
        super(session, config, destinationValidator);
        this.destinationValidator = destinationValidator;
    }

    @Override
    public Object callback(RealmModel realm, UserAuthenticationIdentityProvider.AuthenticationCallback callback, EventBuilder event) {
        return new CheckedSamlEndpoint(session, this, getConfig(), callback, destinationValidator);
    }
}
