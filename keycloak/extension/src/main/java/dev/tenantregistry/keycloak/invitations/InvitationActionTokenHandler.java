package dev.tenantregistry.keycloak.invitations;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.keycloak.TokenVerifier.Predicate;
import org.keycloak.authentication.AuthenticationProcessor;
import org.keycloak.authentication.actiontoken.AbstractActionTokenHandler;
import org.keycloak.authentication.actiontoken.ActionTokenContext;
import org.keycloak.authentication.actiontoken.ExplainedTokenVerificationException;
import org.keycloak.authentication.actiontoken.TokenUtils;
import org.keycloak.authentication.requiredactions.util.RequiredActionsValidator;
import org.keycloak.events.Errors;
import org.keycloak.events.EventType;
import org.keycloak.forms.login.LoginFormsProvider;
import org.keycloak.models.Constants;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;
import org.keycloak.protocol.oidc.OIDCLoginProtocol;
import org.keycloak.protocol.oidc.utils.RedirectUtils;
import org.keycloak.services.Urls;
import org.keycloak.services.managers.AuthenticationManager;
import org.keycloak.services.messages.Messages;
import org.keycloak.services.resources.LoginActionsService;
import org.keycloak.sessions.AuthenticationSessionCompoundId;
import org.keycloak.sessions.AuthenticationSessionModel;

/**
 * Opens an invitation's link: Keycloak's checks of an execute-actions link (signature, expiry, the e-mail still the
 * user's, the redirect allowed for the client, the actions known), then the registry's: the link must be the
 * invitation's current one (not superseded by a resend, not revoked, expired or used). A link that fails any of them
 * shows Keycloak's invalid-link page; one the registry could not be asked about says to try again later. Opened for an account made for the invitation that has no credential yet, it
 * runs the user's required actions as the stock link does and keeps the invitation in the authentication session,
 * where InvitationAcceptanceListener finds it once the password is set. Opened for any other account
 * (InvitationLinkAsks), it adds no action and changes nothing of the account: it leads to the realm's sign-in, and the
 * listener reports the acceptance once that account has signed in in this authentication session (SPEC-EXTENSIONS §13).
 */
public class InvitationActionTokenHandler extends AbstractActionTokenHandler<InvitationActionToken> {

    /** The authentication session's note naming the invitation and its link's secret, "id nonce". */
    public static final String INVITATION_NOTE = "tenant-registry.invitation";

    /** The note of a link that asks its account to sign in: "id nonce user", the user the invitation's e-mail holds. */
    public static final String SIGN_IN_NOTE = "tenant-registry.invitation-sign-in";

    /** The event error of a link the registry could not be asked about (the link may well be valid). */
    static final String REGISTRY_UNREACHABLE = "tenant_registry_unreachable";

    /** What the person reads then. */
    static final String UNCHECKED_MESSAGE = "This invitation cannot be checked right now. Please try again in a few minutes.";

    public InvitationActionTokenHandler() {
        super(InvitationActionToken.TOKEN_TYPE, InvitationActionToken.class, Messages.INVALID_CODE, EventType.EXECUTE_ACTIONS, Errors.NOT_ALLOWED);
    }

    @Override
    public Predicate<? super InvitationActionToken>[] getVerifiers(ActionTokenContext<InvitationActionToken> context) {
        return TokenUtils.predicates(
                TokenUtils.checkThat(
                        t -> t.getRedirectUri() == null
                                || RedirectUtils.verifyRedirectUri(context.getSession(), t.getRedirectUri(), context.getAuthenticationSession().getClient()) != null,
                        Errors.INVALID_REDIRECT_URI, Messages.INVALID_REDIRECT_URI),
                verifyEmail(context),
                TokenUtils.checkThat(
                        (InvitationActionToken t) -> RequiredActionsValidator.validRequiredActions(context.getSession(), t.getRequiredActions()),
                        Errors.RESOLVE_REQUIRED_ACTIONS, Messages.INVALID_TOKEN_REQUIRED_ACTIONS),
                (InvitationActionToken t) -> registryOpens(context, t));
    }

    /**
     * The registry's check of the link, last: Keycloak's invalid-link page ("Action expired") for a link it refuses,
     * and a page of its own, saying to try again, for one it could not check (Keycloak shows a message it has no
     * translation for as it is written; no apostrophe, which its message formatting would drop).
     */
    private static boolean registryOpens(ActionTokenContext<InvitationActionToken> context, InvitationActionToken token)
            throws ExplainedTokenVerificationException {
        switch (InvitationLinks.check(context.getSession(), context.getRealm(), context.getAuthenticationSession().getClient(), token)) {
            case OPENS:
                return true;
            case UNCHECKED:
                throw new ExplainedTokenVerificationException(token, REGISTRY_UNREACHABLE, UNCHECKED_MESSAGE);
            default:
                throw new ExplainedTokenVerificationException(token, Errors.EXPIRED_CODE, Messages.EXPIRED_ACTION);
        }
    }

    @Override
    public Response handleToken(InvitationActionToken token, ActionTokenContext<InvitationActionToken> context) {
        AuthenticationSessionModel authSession = context.getAuthenticationSession();
        KeycloakSession session = context.getSession();
        RealmModel realm = context.getRealm();
        UserModel invitee = authSession.getAuthenticatedUser();
        if (InvitationLinkAsks.signsIn(session, realm, invitee)) {
            return signIn(token, context, invitee);
        }
        if (context.isAuthenticationSessionFresh()) {
            // Opened in a browser without a session: ask to confirm, with this same token bound to the new session.
            token.setCompoundAuthenticationSessionId(AuthenticationSessionCompoundId.fromAuthSession(authSession).getEncodedId());
            UriBuilder confirm = Urls.actionTokenBuilder(context.getUriInfo().getBaseUri(), token.serialize(session, realm, context.getUriInfo()),
                    authSession.getClient().getClientId(), authSession.getTabId(), AuthenticationProcessor.getClientData(session, authSession));
            return session.getProvider(LoginFormsProvider.class)
                    .setAuthenticationSession(authSession)
                    .setSuccess(Messages.CONFIRM_EXECUTION_OF_ACTIONS)
                    .setAttribute(Constants.TEMPLATE_ATTR_ACTION_URI, confirm.build(realm.getName()).toString())
                    .setAttribute(Constants.TEMPLATE_ATTR_REQUIRED_ACTIONS, token.getRequiredActions())
                    .createInfoPage();
        }
        String redirectUri = RedirectUtils.verifyRedirectUri(session, token.getRedirectUri(), authSession.getClient());
        if (redirectUri != null) {
            authSession.setAuthNote(AuthenticationManager.SET_REDIRECT_URI_AFTER_REQUIRED_ACTIONS, "true");
            authSession.setRedirectUri(redirectUri);
            authSession.setClientNote(OIDCLoginProtocol.REDIRECT_URI_PARAM, redirectUri);
        }
        authSession.setAuthNote(INVITATION_NOTE, token.getInvitationId() + " " + token.getLinkNonce());
        token.getRequiredActions().forEach(authSession::addRequiredAction);
        // The link reached the address it was sent to, of an account made for it.
        invitee.setEmailVerified(true);
        String next = AuthenticationManager.nextRequiredAction(session, authSession, context.getRequest(), context.getEvent());
        return AuthenticationManager.redirectToRequiredActions(session, realm, authSession, context.getUriInfo(), next);
    }

    /**
     * The realm's browser flow, as a sign-in that must be made now (prompt=login: an open session does not count),
     * with no user taken from the link: whoever signs in is who the flow says, and only the invitee's sign-in accepts.
     */
    private Response signIn(InvitationActionToken token, ActionTokenContext<InvitationActionToken> context, UserModel invitee) {
        AuthenticationSessionModel authSession = context.getAuthenticationSession();
        KeycloakSession session = context.getSession();
        String redirectUri = RedirectUtils.verifyRedirectUri(session, token.getRedirectUri(), authSession.getClient());
        if (redirectUri != null) {
            authSession.setRedirectUri(redirectUri);
            authSession.setClientNote(OIDCLoginProtocol.REDIRECT_URI_PARAM, redirectUri);
        }
        authSession.setAuthenticatedUser(null);
        // A sign-in ends as one, at the client with a LOGIN event, not on the info page an action link ends on.
        authSession.removeAuthNote(AuthenticationManager.END_AFTER_REQUIRED_ACTIONS);
        authSession.setClientNote(OIDCLoginProtocol.PROMPT_PARAM, OIDCLoginProtocol.PROMPT_VALUE_LOGIN);
        authSession.setClientNote(OIDCLoginProtocol.LOGIN_HINT_PARAM, invitee.getEmail());
        authSession.setAuthNote(SIGN_IN_NOTE, token.getInvitationId() + " " + token.getLinkNonce() + " " + invitee.getId());
        return context.processFlow(false, LoginActionsService.AUTHENTICATE_PATH, context.getRealm().getBrowserFlow(), null, new AuthenticationProcessor());
    }
}
