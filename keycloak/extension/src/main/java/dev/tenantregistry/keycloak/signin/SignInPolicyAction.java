package dev.tenantregistry.keycloak.signin;

import dev.tenantregistry.keycloak.claims.SignInChecks;
import dev.tenantregistry.keycloak.claims.SignInFacts;
import dev.tenantregistry.keycloak.claims.Verdict;
import dev.tenantregistry.keycloak.invitations.InvitationActionTokenHandler;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.keycloak.authentication.RequiredActionContext;
import org.keycloak.authentication.RequiredActionProvider;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.models.UserSessionModel;
import org.keycloak.models.credential.OTPCredentialModel;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.sessions.AuthenticationSessionModel;

/**
 * The registry's decision at sign-in (SPEC-EXTENSIONS §15). A required action rather than a step of the browser flow:
 * Keycloak evaluates every required action's trigger after each authentication, whichever flow made it (password,
 * organization, the SSO broker flows, the browser's open session), so one check covers them all without a copy of
 * Keycloak's own flows. A refusal is an error page that says why, and the sign-in goes no further. A second factor the
 * tenant requires and the user has none of is set up on the spot (Keycloak's OTP set-up, which takes a valid code).
 */
public class SignInPolicyAction implements RequiredActionProvider {

    private static final Logger LOG = Logger.getLogger(SignInPolicyAction.class);

    /** The auth note that carries the refusal's reason from the trigger to the page. */
    static final String REASON_NOTE = "tenant-registry.refused-reason";

    /**
     * The auth note of a sign-in an invitation's link opened: the registry hears of the acceptance during it (after the
     * password is set, or at its login event), so it is judged at its code exchange, once the invitee is a member.
     */
    static final String INVITATION_FLOW_NOTE = "tenant-registry.invitation-flow";

    private static final String TOKEN_ENDPOINT_PATH = "/protocol/openid-connect/token";

    @Override
    public void evaluateTriggers(RequiredActionContext context) {
        UserModel user = context.getUser();
        AuthenticationSessionModel authSession = context.getAuthenticationSession();
        if (user == null || authSession == null) {
            return;
        }
        if (authSession.getAuthNote(InvitationActionTokenHandler.INVITATION_NOTE) != null
                || authSession.getAuthNote(InvitationActionTokenHandler.SIGN_IN_NOTE) != null) {
            authSession.setAuthNote(INVITATION_FLOW_NOTE, "true");
        }
        if (authSession.getAuthNote(INVITATION_FLOW_NOTE) != null) {
            return;
        }
        // A flow an e-mail's link opened in a session of its own (verify e-mail, execute actions) ends with an info
        // page once its actions are done: it signs no one in and issues nothing, and knows nothing of how the user
        // authenticated (the sign-in it came from, e.g. through the tenant's SSO, lives in another session).
        if (authSession.getAuthNote(AuthenticationManager.END_AFTER_REQUIRED_ACTIONS) != null) {
            return;
        }
        // A password grant has no page to show ("Account is not fully set up" would hide the reason): the token-request
        // executor refuses it, invalid_grant with the reason, from the claims call the token needs anyway.
        if (context.getUriInfo().getPath().endsWith(TOKEN_ENDPOINT_PATH)) {
            return;
        }
        Verdict verdict = SignInChecks.atSignIn(context.getSession(), authSession, user);
        if (verdict.allowed()) {
            authSession.removeRequiredAction(SignInPolicyActionFactory.ID);
            authSession.removeAuthNote(REASON_NOTE);
            return;
        }
        if ("mfa_required".equals(verdict.reason()) && !user.credentialManager().isConfiguredFor(OTPCredentialModel.TYPE)) {
            authSession.addRequiredAction(UserModel.RequiredAction.CONFIGURE_TOTP.name());
            authSession.setUserSessionNote(SignInFacts.SECOND_FACTOR_SET_UP, OTPCredentialModel.TYPE);
            return;
        }
        LOG.infof("tenant-registry: sign-in of user %s to %s refused: %s (from the %s)", user.getId(),
                authSession.getClient().getClientId(), verdict.reason(), verdict.source());
        authSession.setAuthNote(REASON_NOTE, verdict.reason());
        authSession.addRequiredAction(SignInPolicyActionFactory.ID);
    }

    /**
     * A session past the tenant's limit is ended, not kept: the browser's cookie would otherwise bring it back at every
     * sign-in until Keycloak's own expiry, and "sign in again" could never ask for the user's credentials. Ended when
     * the page is shown, not when the triggers are judged: Keycloak judges them more than once, and a second judgment
     * without the session would no longer see its age.
     */
    private static void endOpenSession(RequiredActionContext context, UserModel user) {
        RealmModel realm = context.getRealm();
        UserSessionModel open = context.getSession().sessions().getUserSession(realm, context.getAuthenticationSession().getParentSession().getId());
        if (open != null && open.getUser().getId().equals(user.getId())) {
            context.getSession().sessions().removeUserSession(realm, open);
        }
    }

    @Override
    public void requiredActionChallenge(RequiredActionContext context) {
        String reason = context.getAuthenticationSession().getAuthNote(REASON_NOTE);
        if ("session_too_old".equals(reason)) {
            endOpenSession(context, context.getUser());
        }
        Verdict refused = new Verdict(false, reason, null);
        Response page = context.form().setError(refused.message()).createErrorPage(Response.Status.FORBIDDEN);
        context.challenge(page);
    }

    @Override
    public void processAction(RequiredActionContext context) {
        // The page has nothing to submit: whatever comes back is refused again.
        requiredActionChallenge(context);
    }

    @Override
    public void close() {
    }
}
