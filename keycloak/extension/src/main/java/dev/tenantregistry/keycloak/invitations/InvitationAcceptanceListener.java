package dev.tenantregistry.keycloak.invitations;

import org.keycloak.events.Event;
import org.keycloak.events.EventListenerProvider;
import org.keycloak.events.EventType;
import org.keycloak.events.admin.AdminEvent;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.sessions.AuthenticationSessionModel;

/**
 * Tells the registry that an invited user completed its invitation's link: when the user sets its password in the
 * authentication session an invitation's link opened (InvitationActionTokenHandler's note), the registry is called
 * at once, so the invitation is accepted without waiting for the user's first token.
 */
public class InvitationAcceptanceListener implements EventListenerProvider {

    private final KeycloakSession session;

    public InvitationAcceptanceListener(KeycloakSession session) {
        this.session = session;
    }

    @Override
    public void onEvent(Event event) {
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
        RealmModel realm = session.getContext().getRealm();
        InvitationLinks.accepted(session, realm, authSession.getClient(), parts[0], parts.length > 1 ? parts[1] : "", event.getUserId());
    }

    @Override
    public void onEvent(AdminEvent event, boolean includeRepresentation) {
    }

    @Override
    public void close() {
    }
}
