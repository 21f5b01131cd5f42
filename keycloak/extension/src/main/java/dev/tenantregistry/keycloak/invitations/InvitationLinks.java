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
 * What the extension asks the registry of an invitation's link, at the registry the invite's client's
 * tenant-registry-claims mapper asks, with that mapper's service token: whether the link still opens its invitation,
 * and that its user completed it.
 */
final class InvitationLinks {

    private static final Logger LOG = Logger.getLogger(InvitationLinks.class);

    private InvitationLinks() {
    }

    /**
     * True only when the registry says the link is its invitation's current one: a link it cannot check (registry
     * down, no mapper on the client) opens nothing, as a revoked one would not.
     */
    static boolean opens(KeycloakSession session, RealmModel realm, ClientModel client, InvitationActionToken token) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("invitation_id", token.getInvitationId());
        body.put("nonce", token.getLinkNonce());
        body.put("user_id", token.getUserId());
        try {
            RegistryRequests.Answer answer = RegistryRequests.post(session, realm, client, "/v1/internal/idp/invitations/link", body);
            JsonNode json = answer.body();
            return answer.status() == 200 && json != null && json.path("open").asBoolean(false);
        } catch (Exception e) {
            LOG.warnf("tenant-registry invitation link %s could not be checked with the registry (%s); it opens nothing",
                    token.getInvitationId(), e.getMessage());
            return false;
        }
    }

    /** Reports that the user completed the invitation's link; a failure is logged (the registry's sign-in backstop accepts it). */
    static void accepted(KeycloakSession session, RealmModel realm, ClientModel client, String invitationId, String nonce, String userId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("invitation_id", invitationId);
        body.put("nonce", nonce);
        body.put("user_id", userId);
        try {
            RegistryRequests.Answer answer = RegistryRequests.post(session, realm, client, "/v1/internal/idp/invitations/accepted", body);
            if (answer.status() != 200) {
                LOG.warnf("tenant-registry invitation %s: the registry answered HTTP %d to its acceptance by user %s",
                        invitationId, answer.status(), userId);
            }
        } catch (Exception e) {
            LOG.warnf("tenant-registry invitation %s: its acceptance by user %s could not be reported (%s); the user's first sign-in accepts it",
                    invitationId, userId, e.getMessage());
        }
    }
}
