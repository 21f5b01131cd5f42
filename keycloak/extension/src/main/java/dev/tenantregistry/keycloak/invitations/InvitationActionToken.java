package dev.tenantregistry.keycloak.invitations;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.keycloak.authentication.actiontoken.DefaultActionToken;

/**
 * The action token of an invitation's link: the user's required actions as Keycloak's execute-actions token carries
 * them, and the registry's invitation and link secret. Its own type, so that InvitationActionTokenHandler, which asks
 * the registry whether the link is still the invitation's current one, handles it instead of the stock handler.
 */
public class InvitationActionToken extends DefaultActionToken {

    public static final String TOKEN_TYPE = "tenant-registry-invitation";

    @JsonProperty("rqac")
    private List<String> requiredActions;

    @JsonProperty("reduri")
    private String redirectUri;

    @JsonProperty("tr_invitation")
    private String invitationId;

    @JsonProperty("tr_nonce")
    private String linkNonce;

    public InvitationActionToken(String userId, String email, int absoluteExpirationInSecs, List<String> requiredActions,
                                 String redirectUri, String clientId, String invitationId, String linkNonce) {
        super(userId, TOKEN_TYPE, absoluteExpirationInSecs, UUID.randomUUID());
        setEmail(email);
        issuedFor(clientId);
        this.requiredActions = new ArrayList<>(requiredActions);
        this.redirectUri = redirectUri;
        this.invitationId = invitationId;
        this.linkNonce = linkNonce;
    }

    /** For Jackson, which reads a presented token back. */
    private InvitationActionToken() {
    }

    public List<String> getRequiredActions() {
        return requiredActions == null ? List.of() : requiredActions;
    }

    public String getRedirectUri() {
        return redirectUri;
    }

    public String getInvitationId() {
        return invitationId;
    }

    public String getLinkNonce() {
        return linkNonce;
    }
}
