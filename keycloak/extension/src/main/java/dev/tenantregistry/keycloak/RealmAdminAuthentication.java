package dev.tenantregistry.keycloak;

import jakarta.ws.rs.NotAuthorizedException;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;
import org.keycloak.services.managers.AppAuthManager;
import org.keycloak.services.managers.AuthenticationManager.AuthResult;
import org.keycloak.services.resources.admin.AdminAuth;

/**
 * Authenticates the caller the way the admin REST API does (AdminRoot.authenticateRealmAdminRequest), except that
 * only tokens of the realm in the path are taken: the admin client of the service lives in the tenants' realm, and a
 * token of another realm has no business sending that realm's invitations. Authorisation is left to the caller of
 * this class (AdminPermissions), exactly as the admin resources do it.
 */
final class RealmAdminAuthentication {

    private RealmAdminAuthentication() {
    }

    /** The caller as an admin of `realm`; 401 (NotAuthorizedException, with the Bearer challenge) when the token is missing or invalid. */
    static AdminAuth authenticate(KeycloakSession session, RealmModel realm) {
        // Checks signature, expiry, issuer (= this realm), token type, an active user session or service account.
        AuthResult result = new AppAuthManager.BearerTokenAuthenticator(session).setRealm(realm).authenticate();
        if (result == null) {
            throw new NotAuthorizedException("Bearer");
        }
        session.getContext().setBearerToken(result.token());
        return new AdminAuth(realm, result.token(), result.user(), result.client());
    }
}
