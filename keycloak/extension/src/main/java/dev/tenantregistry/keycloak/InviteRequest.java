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
}
