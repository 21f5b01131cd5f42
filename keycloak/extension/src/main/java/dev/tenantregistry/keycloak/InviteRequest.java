package dev.tenantregistry.keycloak;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Body of POST /realms/{realm}/tenant-registry/invite: the same inputs as the stock
 * PUT /admin/realms/{realm}/users/{id}/execute-actions-email (there split over path, query and body).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public class InviteRequest {

    @JsonProperty("user_id")
    public String userId;

    @JsonProperty("actions")
    public List<String> actions;

    /** Seconds the action link stays valid; absent means the realm's admin-issued action token lifespan. */
    @JsonProperty("lifespan")
    public Integer lifespan;

    @JsonProperty("client_id")
    public String clientId;

    @JsonProperty("redirect_uri")
    public String redirectUri;

    /** The registry's invitation the link opens: with `nonce`, the link is an InvitationActionToken the registry checks. */
    @JsonProperty("invitation_id")
    public String invitationId;

    /** The secret the registry holds for the invitation's current link. */
    @JsonProperty("nonce")
    public String nonce;

    /** The alias of the organization an invitation joins, named in its e-mail. */
    @JsonProperty("organization")
    public String organization;

    /** False: the link is only answered, no e-mail goes out. Absent: true. */
    @JsonProperty("send_email")
    public Boolean sendEmail;
}
