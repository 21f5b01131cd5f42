package dev.tenantregistry.keycloak.sso;

import dev.tenantregistry.keycloak.claims.RegistryRequests;
import jakarta.ws.rs.core.Response;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;
import org.keycloak.authentication.AuthenticationFlowContext;
import org.keycloak.authentication.AuthenticationFlowError;
import org.keycloak.authentication.Authenticator;
import org.keycloak.authentication.authenticators.broker.AbstractIdpAuthenticator;
import org.keycloak.authentication.authenticators.broker.util.PostBrokerLoginConstants;
import org.keycloak.authentication.authenticators.broker.util.SerializedBrokeredIdentityContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.sessions.AuthenticationSessionModel;

/**
 * Asks the registry, before a brokered sign-in these flows run makes, links or signs in an account, whether it may go
 * on. The registry's record, not the alias, says whether the identity provider is a tenant's SSO connection (of any
 * protocol): a connection may vouch only for an e-mail at its verified domains (SPEC-EXTENSIONS §13), a deleted one for
 * none; an identity provider that was never a connection is no tenant's, and the registry lets the flow go on as it
 * would without this step. Anything but the registry's yes fails the flow with an error page, a registry that does not
 * answer included: a tenant's provider is never believed unchecked.
 */
public class SsoEmailCheckAuthenticator implements Authenticator {

    private static final Logger LOG = Logger.getLogger(SsoEmailCheckAuthenticator.class);

    static final String CHECK_PATH = "/v1/internal/idp/sso-sign-in-checks";

    static final String REFUSED_MESSAGE = "Your organization's sign-in service cannot sign you in with this e-mail address here. "
            + "Ask your administrator which address to use.";
    static final String UNCHECKED_MESSAGE = "Your sign-in cannot be checked right now. Please try again in a moment.";

    @Override
    public void authenticate(AuthenticationFlowContext context) {
        AuthenticationSessionModel authSession = context.getAuthenticationSession();
        SerializedBrokeredIdentityContext brokered = brokeredIdentity(authSession);
        if (brokered == null) {
            // Only the broker flows carry a brokered identity: placed elsewhere, this step lets nobody through.
            fail(context, AuthenticationFlowError.INTERNAL_ERROR, UNCHECKED_MESSAGE);
            return;
        }
        String alias = brokered.getIdentityProviderId();
        if (alias == null) {
            fail(context, AuthenticationFlowError.INTERNAL_ERROR, UNCHECKED_MESSAGE);
            return;
        }
        Map<String, Object> body = new HashMap<>();
        body.put("idp_alias", alias);
        if (brokered.getEmail() != null) {
            body.put("email", brokered.getEmail());
        }
        RegistryRequests.Answer answer;
        try {
            answer = RegistryRequests.post(context.getSession(), context.getRealm(), authSession.getClient(), CHECK_PATH, body);
        } catch (Exception e) {
            LOG.warnf("tenant-registry: a sign-in through %s is refused: the registry could not be asked (%s)", alias, e.getMessage());
            fail(context, AuthenticationFlowError.INTERNAL_ERROR, UNCHECKED_MESSAGE);
            return;
        }
        if (answer.status() == 200 && answer.body() != null && answer.body().path("allowed").asBoolean(false)) {
            context.success();
            return;
        }
        if (answer.status() == 403) {
            fail(context, AuthenticationFlowError.ACCESS_DENIED, REFUSED_MESSAGE);
            return;
        }
        LOG.warnf("tenant-registry: a sign-in through %s is refused: the registry answered HTTP %d", alias, answer.status());
        fail(context, AuthenticationFlowError.INTERNAL_ERROR, UNCHECKED_MESSAGE);
    }

    /** The identity a first broker login is about, or, after the login, the one a post-broker-login flow is about. */
    private static SerializedBrokeredIdentityContext brokeredIdentity(AuthenticationSessionModel authSession) {
        SerializedBrokeredIdentityContext first = SerializedBrokeredIdentityContext.readFromAuthenticationSession(authSession, AbstractIdpAuthenticator.BROKERED_CONTEXT_NOTE);
        return first != null ? first
                : SerializedBrokeredIdentityContext.readFromAuthenticationSession(authSession, PostBrokerLoginConstants.PBL_BROKERED_IDENTITY_CONTEXT);
    }

    private static void fail(AuthenticationFlowContext context, AuthenticationFlowError error, String message) {
        Response page = context.form().setError(message).createErrorPage(Response.Status.FORBIDDEN);
        context.failure(error, page);
    }

    @Override
    public void action(AuthenticationFlowContext context) {
        authenticate(context);
    }

    @Override
    public boolean requiresUser() {
        return false;
    }

    @Override
    public boolean configuredFor(KeycloakSession session, RealmModel realm, UserModel user) {
        return true;
    }

    @Override
    public void setRequiredActions(KeycloakSession session, RealmModel realm, UserModel user) {
    }

    @Override
    public void close() {
    }
}
