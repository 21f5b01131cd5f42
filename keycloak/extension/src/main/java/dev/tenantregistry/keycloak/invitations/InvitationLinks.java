package dev.tenantregistry.keycloak.invitations;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tenantregistry.keycloak.claims.RegistryRequests;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;
import org.keycloak.models.ClientModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;

/**
 * What the extension tells and asks the registry of a person's sign-in, at the registry the client's
 * tenant-registry-claims mapper asks, with that mapper's service token: whether an invitation's link still opens it,
 * that its user completed it, and that a user signed in through a tenant's SSO connection.
 */
final class InvitationLinks {

    private static final Logger LOG = Logger.getLogger(InvitationLinks.class);

    private InvitationLinks() {
    }

    /**
     * Whether the registry says the link is its invitation's current one. Only OPENS opens it: a link the registry
     * could not be asked about (down, slow, refusing the extension's token, no mapper on the client) opens nothing
     * either, as a revoked one would not, but the person is told to try again rather than that the link expired.
     */
    static LinkCheck check(KeycloakSession session, RealmModel realm, ClientModel client, InvitationActionToken token) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("invitation_id", token.getInvitationId());
        body.put("nonce", token.getLinkNonce());
        body.put("user_id", token.getUserId());
        try {
            RegistryRequests.Answer answer = RegistryRequests.post(session, realm, client, "/v1/internal/idp/invitations/link", body);
            JsonNode json = answer.body();
            LinkCheck check = LinkCheck.of(answer.status(), json != null && json.path("open").asBoolean(false));
            if (check == LinkCheck.UNCHECKED) {
                LOG.warnf("tenant-registry invitation link %s could not be checked: the registry answered HTTP %d; it opens nothing for now",
                        token.getInvitationId(), answer.status());
            }
            return check;
        } catch (Exception e) {
            LOG.warnf("tenant-registry invitation link %s could not be checked with the registry (%s); it opens nothing for now",
                    token.getInvitationId(), e.getMessage());
            return LinkCheck.UNCHECKED;
        }
    }

    /**
     * Reports a sign-in through an identity provider; a failure is logged, the login goes on. The registry's 404 says
     * the alias is no tenant connection's (or the user is not linked to it): nothing to record.
     */
    static void ssoSignIn(RegistryRequests.Target target, String alias, String userId, String email, String name) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("user_id", userId);
        body.put("idp_alias", alias);
        if (email != null && !email.isBlank()) {
            body.put("email", email);
        }
        if (name != null && !name.isBlank()) {
            body.put("name", name);
        }
        try {
            RegistryRequests.Answer answer = RegistryRequests.post(target, "/v1/internal/idp/sso-sign-ins", body);
            if (answer.status() != 200 && answer.status() != 201 && answer.status() != 404) {
                LOG.warnf("tenant-registry: the registry answered HTTP %d to the sign-in of user %s through %s", answer.status(), userId, alias);
            }
        } catch (Exception e) {
            LOG.warnf("tenant-registry: the sign-in of user %s through %s could not be reported (%s)", userId, alias, e.getMessage());
        }
    }

    /**
     * Reports that the invitee completed the invitation's link (set its first password, or signed in through it); a
     * failure is logged and accepts nothing: the invitation stays pending, and its link, opened again, leads to a sign-in.
     */
    static void accepted(RegistryRequests.Target target, String invitationId, String nonce, String userId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("invitation_id", invitationId);
        body.put("nonce", nonce);
        body.put("user_id", userId);
        try {
            RegistryRequests.Answer answer = RegistryRequests.post(target, "/v1/internal/idp/invitations/accepted", body);
            if (answer.status() != 200) {
                LOG.warnf("tenant-registry invitation %s: the registry answered HTTP %d to its acceptance by user %s", invitationId, answer.status(), userId);
            }
        } catch (Exception e) {
            LOG.warnf("tenant-registry invitation %s: its acceptance by user %s could not be reported (%s); it stays pending",
                    invitationId, userId, e.getMessage());
        }
    }
}
