package dev.tenantregistry.keycloak.claims;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * The registry's decision as the extension makes it alone while the registry cannot be asked: the registry's rule
 * (domain/signIn/signInDecision.ts), on the state it last pushed into the user's tenant_memberships value for the
 * token's tenant: the tenant's status, the member's status and break-glass mark, the tenant's sign-in policy, and which
 * clients belong to products the tenant is entitled to, to others, or to products that fail closed (refused outright
 * while the registry cannot be asked). Nothing pushed about the tenant leaves nothing to hold against the sign-in.
 */
final class PushedVerdict {

    /** RFC 8176 methods that are a second factor, as the registry counts them. */
    private static final Set<String> SECOND_FACTORS = Set.of("otp", "mfa", "hwk", "swk", "sc", "sms", "tel", "fpt", "face", "iris",
            "retina", "vbm", "pop");

    private PushedVerdict() {
    }

    /**
     * The decision for the token's tenant (`claims`, as PushedClaims chose them); `throughTenantSso`: the identity
     * provider the user came through is linked to that tenant's organization.
     */
    static Verdict of(TenantClaims claims, List<String> memberships, SignInFacts facts, boolean throughTenantSso, long nowSeconds) {
        if (claims.tenantId() == null || claims.tenantStatus() == null) {
            return stranger(memberships, facts);
        }
        JsonNode pushed = valueOf(memberships, claims.tenantId());
        if (listed(pushed, "fail_closed_clients", facts.clientId())) {
            return Verdict.deny(Verdict.REGISTRY_UNAVAILABLE, TenantClaims.FROM_ATTRIBUTES);
        }
        String reason = reason(claims, pushed, facts, throughTenantSso, nowSeconds);
        return reason == null ? new Verdict(true, null, TenantClaims.FROM_ATTRIBUTES) : Verdict.deny(reason, TenantClaims.FROM_ATTRIBUTES);
    }

    /**
     * No tenant for the sign-in (the registry knows none of the user's, or nothing pushed names one): a product's
     * client, as any pushed value lists it, is refused; any other client lets the user through, as before 0.4.
     */
    static Verdict stranger(List<String> memberships, SignInFacts facts) {
        for (String value : memberships) {
            JsonNode pushed = readJson(value);
            if (listed(pushed, "entitled_clients", facts.clientId()) || listed(pushed, "refused_clients", facts.clientId())) {
                return Verdict.deny("not_a_member", TenantClaims.FROM_ATTRIBUTES);
            }
        }
        return new Verdict(true, null, TenantClaims.FROM_ATTRIBUTES);
    }

    /** The registry's rules in its order; null when none refuses. */
    static String reason(TenantClaims claims, JsonNode pushed, SignInFacts facts, boolean throughTenantSso, long nowSeconds) {
        if ("archived".equals(claims.tenantStatus())) {
            return "tenant_archived";
        }
        if ("frozen".equals(claims.tenantStatus())) {
            return "tenant_frozen";
        }
        boolean productClient = listed(pushed, "entitled_clients", facts.clientId()) || listed(pushed, "refused_clients", facts.clientId());
        String member = claims.membershipStatus();
        if (TenantClaims.NOT_A_MEMBER.equals(member) || ("pending".equals(member) && productClient)) {
            return "not_a_member";
        }
        if ("inactive".equals(member)) {
            return "member_inactive";
        }
        if (listed(pushed, "refused_clients", facts.clientId())) {
            return "not_entitled";
        }
        JsonNode policy = pushed.path("sign_in");
        if (policy.path("require_sso").asBoolean(false) && !throughTenantSso && !pushed.path("break_glass").asBoolean(false)) {
            return "sso_required";
        }
        if ("required".equals(policy.path("mfa").asText("")) && !throughTenantSso && facts.amr().stream().noneMatch(SECOND_FACTORS::contains)) {
            return "mfa_required";
        }
        JsonNode maxHours = policy.path("session_max_hours");
        if (maxHours.isNumber() && (facts.authTime() == null || nowSeconds - facts.authTime() > maxHours.asDouble() * 3600)) {
            return "session_too_old";
        }
        return null;
    }

    private static boolean listed(JsonNode pushed, String list, String clientId) {
        if (clientId == null) {
            return false;
        }
        for (JsonNode item : pushed.path(list)) {
            if (clientId.equals(item.asText())) {
                return true;
            }
        }
        return false;
    }

    /** The pushed value of one tenant, as JSON; a missing node when there is none (every read of it then finds nothing). */
    private static JsonNode valueOf(List<String> memberships, String tenantId) {
        for (String value : memberships) {
            JsonNode json = readJson(value);
            if (tenantId.equalsIgnoreCase(json.path("tenant_id").asText(""))) {
                return json;
            }
        }
        return JsonHttp.JSON.missingNode();
    }

    /** An admin-edited value that is not JSON reads as nothing, as PushedClaims skips it. */
    private static JsonNode readJson(String value) {
        try {
            JsonNode json = value == null ? null : JsonHttp.JSON.readTree(value);
            return json == null ? JsonHttp.JSON.missingNode() : json;
        } catch (IOException malformed) {
            return JsonHttp.JSON.missingNode();
        }
    }
}
