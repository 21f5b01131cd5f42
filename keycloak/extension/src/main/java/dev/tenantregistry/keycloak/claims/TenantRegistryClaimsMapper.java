package dev.tenantregistry.keycloak.claims;

import jakarta.ws.rs.core.UriBuilder;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.keycloak.OAuth2Constants;
import org.keycloak.models.ClientModel;
import org.keycloak.models.ClientSessionContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.ProtocolMapperContainerModel;
import org.keycloak.models.ProtocolMapperModel;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.models.UserSessionModel;
import org.keycloak.protocol.ProtocolMapperConfigException;
import org.keycloak.protocol.oidc.mappers.AbstractOIDCProtocolMapper;
import org.keycloak.protocol.oidc.mappers.OIDCAccessTokenMapper;
import org.keycloak.protocol.oidc.mappers.OIDCAttributeMapperHelper;
import org.keycloak.protocol.oidc.mappers.OIDCIDTokenMapper;
import org.keycloak.protocol.oidc.mappers.UserInfoTokenMapper;
import org.keycloak.provider.ProviderConfigProperty;
import org.keycloak.representations.IDToken;
import org.keycloak.urls.UrlType;

/**
 * Protocol mapper tenant-registry-claims: at every issuance of an access token, ID token or userinfo answer (so at
 * login and at every refresh) it asks the tenant registry for the current claims of the user in the tenant the token
 * is for and projects tenant_id, tenant_slug, plan, tenant_status, products, org_roles, permissions,
 * membership_status and claims_source "registry".
 *
 * It never fails a login: when the registry does not answer in time, answers an error or cannot be reached, the token
 * carries the claims last pushed into the user (PushedClaims) and claims_source "attributes". The same call answers the
 * registry's decision on the sign-in, which the token-request executor enforces (SignInChecks). See docs/operators.md
 * for how a product adds it to its client.
 */
public class TenantRegistryClaimsMapper extends AbstractOIDCProtocolMapper
        implements OIDCAccessTokenMapper, OIDCIDTokenMapper, UserInfoTokenMapper {

    public static final String PROVIDER_ID = "tenant-registry-claims";

    private static final List<ProviderConfigProperty> CONFIG;

    static {
        List<ProviderConfigProperty> properties = new ArrayList<>(MapperSettings.properties());
        OIDCAttributeMapperHelper.addIncludeInTokensConfig(properties, TenantRegistryClaimsMapper.class);
        CONFIG = List.copyOf(properties);
    }

    @Override
    public String getId() {
        return PROVIDER_ID;
    }

    @Override
    public String getDisplayType() {
        return "Tenant registry claims";
    }

    @Override
    public String getDisplayCategory() {
        return TOKEN_MAPPER_CATEGORY;
    }

    @Override
    public String getHelpText() {
        return "Asks the tenant registry for the current claims of the user in the token's tenant (tenant_id, tenant_slug, "
                + "plan, tenant_status, products, org_roles, permissions, membership_status) at every issuance; falls back "
                + "to the user's pushed attributes.";
    }

    @Override
    public List<ProviderConfigProperty> getConfigProperties() {
        return CONFIG;
    }

    @Override
    public void validateConfig(KeycloakSession session, RealmModel realm, ProtocolMapperContainerModel container,
                               ProtocolMapperModel model) throws ProtocolMapperConfigException {
        try {
            MapperSettings.from(model.getConfig());
        } catch (IllegalArgumentException e) {
            throw new ProtocolMapperConfigException(e.getMessage());
        }
    }

    @Override
    protected void setClaim(IDToken token, ProtocolMapperModel model, UserSessionModel userSession, KeycloakSession session,
                            ClientSessionContext context) {
        UserModel user = userSession.getUser();
        // Access token, ID token and userinfo of one request ask once: the same answer goes into each.
        String memo = PROVIDER_ID + ":" + model.getId() + ":" + user.getId();
        TenantClaims claims = session.getAttribute(memo, TenantClaims.class);
        if (claims == null) {
            claims = SignInChecks.forToken(model, session, userSession, context).claims();
            session.setAttribute(memo, claims);
        }
        token.getOtherClaims().putAll(claims.asClaims());
        // The methods the registry judged the sign-in by (SPEC-EXTENSIONS §15), unless another mapper says already.
        List<String> amr = SignInFacts.methods(userSession.getRealm(), userSession.getNotes());
        if (!amr.isEmpty()) {
            token.getOtherClaims().putIfAbsent(OAuth2Constants.AUTHENTICATOR_METHOD_REFERENCE, amr);
        }
    }

    static String secretOf(RealmModel realm, String clientId) {
        ClientModel client = realm.getClientByClientId(clientId);
        if (client == null || client.isPublicClient() || client.getSecret() == null) {
            throw new IllegalArgumentException("service client " + clientId + " is not a confidential client of this realm");
        }
        return client.getSecret();
    }

    static URI tokenEndpointOf(KeycloakSession session, RealmModel realm) {
        URI base = session.getContext().getUri(UrlType.BACKEND).getBaseUri();
        return UriBuilder.fromUri(base).path("realms/{realm}/protocol/openid-connect/token").build(realm.getName());
    }
}
