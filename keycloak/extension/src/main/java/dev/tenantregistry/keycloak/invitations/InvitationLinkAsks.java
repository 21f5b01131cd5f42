package dev.tenantregistry.keycloak.invitations;

import java.util.Collection;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.models.UserModel;

/**
 * What an invitation's link asks of the account it is for (SPEC-EXTENSIONS §13; the registry's
 * domain/invitations/inviteLinkAsks.ts), judged when the link is opened: an account made for an invitation that has no
 * credential yet (its UPDATE_PASSWORD still pending) completes its actions and sets its first password; any other
 * account (a password, an OTP, a linked identity provider or user federation; or one made without an invitation's
 * actions, such as a directory's) signs in, and the link adds nothing to it.
 */
final class InvitationLinkAsks {

    private InvitationLinkAsks() {
    }

    static boolean signsIn(boolean hasCredentials, Collection<String> requiredActions) {
        return hasCredentials || !requiredActions.contains(UserModel.RequiredAction.UPDATE_PASSWORD.name());
    }

    static boolean signsIn(KeycloakSession session, RealmModel realm, UserModel user) {
        boolean hasCredentials = user.getFederationLink() != null
                || user.credentialManager().getStoredCredentialsStream().findAny().isPresent()
                || session.users().getFederatedIdentitiesStream(realm, user).findAny().isPresent();
        return signsIn(hasCredentials, user.getRequiredActionsStream().toList());
    }
}
