package dev.tenantregistry.keycloak.signin;

import dev.tenantregistry.keycloak.claims.SignInChecks;
import dev.tenantregistry.keycloak.claims.Verdict;
import org.jboss.logging.Logger;
import org.keycloak.OAuthErrorException;
import org.keycloak.models.ClientSessionContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.UserSessionModel;
import org.keycloak.protocol.oidc.TokenManager;
import org.keycloak.representations.idm.ClientPolicyExecutorConfigurationRepresentation;
import org.keycloak.services.clientpolicy.ClientPolicyContext;
import org.keycloak.services.clientpolicy.ClientPolicyException;
import org.keycloak.services.clientpolicy.context.ResourceOwnerPasswordCredentialsResponseContext;
import org.keycloak.services.clientpolicy.context.TokenRefreshResponseContext;
import org.keycloak.services.clientpolicy.context.TokenResponseContext;
import org.keycloak.services.clientpolicy.executor.ClientPolicyExecutorProvider;

/**
 * The registry's decision at the code exchange, at every refresh and at a password grant: invalid_grant, with the
 * reason as the error description. It runs once the tokens are built, so the claims mapper has already asked the registry in this request
 * and the decision is read from there (SignInChecks), not asked for again.
 */
public class SignInPolicyExecutor implements ClientPolicyExecutorProvider<ClientPolicyExecutorConfigurationRepresentation> {

    private static final Logger LOG = Logger.getLogger(SignInPolicyExecutor.class);

    private final KeycloakSession session;

    SignInPolicyExecutor(KeycloakSession session) {
        this.session = session;
    }

    @Override
    public Class<ClientPolicyExecutorConfigurationRepresentation> getExecutorConfigurationClass() {
        return ClientPolicyExecutorConfigurationRepresentation.class;
    }

    @Override
    public void executeOnEvent(ClientPolicyContext context) throws ClientPolicyException {
        TokenManager.AccessTokenResponseBuilder tokens = switch (context.getEvent()) {
            case TOKEN_RESPONSE -> ((TokenResponseContext) context).getAccessTokenResponseBuilder();
            case TOKEN_REFRESH_RESPONSE -> ((TokenRefreshResponseContext) context).getAccessTokenResponseBuilder();
            // A password grant is a sign-in and its first tokens at once: no browser flow, so no required action, ran.
            case RESOURCE_OWNER_PASSWORD_CREDENTIALS_RESPONSE -> ((ResourceOwnerPasswordCredentialsResponseContext) context).getAccessTokenResponseBuilder();
            default -> null;
        };
        if (tokens == null) {
            return;
        }
        ClientSessionContext clientSession = tokens.getClientSessionCtx();
        UserSessionModel userSession = clientSession.getClientSession().getUserSession();
        Verdict verdict = SignInChecks.atToken(session, userSession, clientSession);
        if (!verdict.allowed()) {
            LOG.infof("tenant-registry: %s of user %s for %s refused: %s", context.getEvent(), userSession.getUser().getId(),
                    clientSession.getClientSession().getClient().getClientId(), verdict.reason());
            throw new ClientPolicyException(OAuthErrorException.INVALID_GRANT, verdict.reason());
        }
    }

    @Override
    public String getProviderId() {
        return SignInPolicyExecutorFactory.ID;
    }
}
