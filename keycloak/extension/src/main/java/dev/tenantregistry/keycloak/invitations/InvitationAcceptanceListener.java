package dev.tenantregistry.keycloak.invitations;

import org.keycloak.events.Event;
import org.keycloak.events.EventListenerProvider;
import org.keycloak.events.EventType;
import org.keycloak.events.admin.AdminEvent;
import dev.tenantregistry.keycloak.claims.RegistryRequests;
import org.jboss.logging.Logger;
import org.keycloak.models.AbstractKeycloakTransaction;
import org.keycloak.models.ClientModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.UserModel;
import org.keycloak.models.RealmModel;
import org.keycloak.sessions.AuthenticationSessionModel;

/**
 * Tells the registry what it must hear of a person's sign-in: that an invited user completed its invitation's link,
 * and that a user signed in through an identity provider (the registry knows which are tenants' SSO connections). For the invitation: when, in the authentication session
 * an invitation's link opened (InvitationActionTokenHandler's notes), an account made for it sets its password, or the
 * account the invitation's e-mail holds signs in, the registry is called at once, so the invitation is accepted
 * without waiting for the user's first token.
 */
public class InvitationAcceptanceListener implements EventListenerProvider {

    private static final Logger LOG = Logger.getLogger(InvitationAcceptanceListener.class);

    private final KeycloakSession session;

    public InvitationAcceptanceListener(KeycloakSession session) {
        this.session = session;
    }

    @Override
    public void onEvent(Event event) {
        if (event.getType() == EventType.LOGIN) {
            reportInvitationSignIn(event);
        }
        if (event.getType() == EventType.LOGIN || event.getType() == EventType.REGISTER) {
            reportSsoSignIn(event);
            return;
        }
        if (event.getType() != EventType.UPDATE_PASSWORD && event.getType() != EventType.UPDATE_CREDENTIAL) {
            return;
        }
        AuthenticationSessionModel authSession = session.getContext().getAuthenticationSession();
        String note = authSession == null ? null : authSession.getAuthNote(InvitationActionTokenHandler.INVITATION_NOTE);
        if (note == null || event.getUserId() == null) {
            return;
        }
        authSession.removeAuthNote(InvitationActionTokenHandler.INVITATION_NOTE);
        String[] parts = note.split(" ", 2);
        String invitationId = parts[0];
        String nonce = parts.length > 1 ? parts[1] : "";
        reportAcceptance(authSession, invitationId, nonce, event.getUserId());
    }

    /**
     * The sign-in an invitation's link led an account with credentials to: only the user the invitation's e-mail holds
     * accepts it; anyone else signing in in that session accepts nothing.
     */
    private void reportInvitationSignIn(Event event) {
        AuthenticationSessionModel authSession = session.getContext().getAuthenticationSession();
        String note = authSession == null ? null : authSession.getAuthNote(InvitationActionTokenHandler.SIGN_IN_NOTE);
        if (note == null || event.getUserId() == null) {
            return;
        }
        authSession.removeAuthNote(InvitationActionTokenHandler.SIGN_IN_NOTE);
        String[] parts = note.split(" ", 3);
        if (parts.length < 3 || !parts[2].equals(event.getUserId())) {
            LOG.infof("tenant-registry invitation %s: user %s signed in through its link but is not its invitee; nothing is accepted", parts[0], event.getUserId());
            return;
        }
        reportAcceptance(authSession, parts[0], parts[1], event.getUserId());
    }

    private void reportAcceptance(AuthenticationSessionModel authSession, String invitationId, String nonce, String userId) {
        RegistryRequests.Target target;
        try {
            target = RegistryRequests.target(session, session.getContext().getRealm(), authSession.getClient());
        } catch (Exception e) {
            LOG.warnf("tenant-registry invitation %s: its acceptance by user %s cannot be reported (%s)", invitationId, userId, e.getMessage());
            return;
        }
        // After the password or the sign-in is committed: the registry's sync of the member then reads the user as it is now.
        session.getTransactionManager().enlistAfterCompletion(new AbstractKeycloakTransaction() {
            @Override
            protected void commitImpl() {
                InvitationLinks.accepted(target, invitationId, nonce, userId);
            }

            @Override
            protected void rollbackImpl() {
            }
        });
    }

    /**
     * A sign-in through an identity provider: the registry, which knows which are tenants' SSO connections (whatever
     * their alias or protocol), makes a user that is no member of the connection's tenant a member with its default
     * role, before the token the sign-in leads to is made; through any other identity provider it records nothing.
     */
    private void reportSsoSignIn(Event event) {
        String alias = event.getDetails() == null ? null : event.getDetails().get("identity_provider");
        if (alias == null || event.getUserId() == null) {
            return;
        }
        RealmModel realm = session.getContext().getRealm();
        UserModel user = session.users().getUserById(realm, event.getUserId());
        ClientModel client = event.getClientId() == null ? null : realm.getClientByClientId(event.getClientId());
        String name = user == null ? "" : String.join(" ", java.util.stream.Stream.of(user.getFirstName(), user.getLastName())
                .filter(part -> part != null && !part.isBlank()).toList());
        String userId = event.getUserId();
        String email = user == null ? null : user.getEmail();
        RegistryRequests.Target target;
        try {
            target = RegistryRequests.target(session, realm, client);
        } catch (Exception e) {
            LOG.warnf("tenant-registry: the sign-in of user %s through %s cannot be reported (%s)", userId, alias, e.getMessage());
            return;
        }
        // After the sign-in's transaction commits: the registry asks Keycloak whether the user is linked to the
        // identity provider, which it can see only then; still before the answer that leads to the user's token.
        session.getTransactionManager().enlistAfterCompletion(new AbstractKeycloakTransaction() {
            @Override
            protected void commitImpl() {
                InvitationLinks.ssoSignIn(target, alias, userId, email, name);
            }

            @Override
            protected void rollbackImpl() {
            }
        });
    }

    @Override
    public void onEvent(AdminEvent event, boolean includeRepresentation) {
    }

    @Override
    public void close() {
    }
}
