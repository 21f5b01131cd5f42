package dev.tenantregistry.keycloak.claims;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.keycloak.models.UserModel;

/**
 * The claims a token gets, and where they came from: the registry's answer, or the attributes last pushed into the
 * user. Absent values are left out of the token rather than written as null. Names are the registry's (SPEC.md,
 * SPEC-EXTENSIONS §7: permissions and membership_status are the member's in the tenant).
 */
record TenantClaims(String tenantId, String tenantSlug, String plan, String tenantStatus, List<String> products,
                    List<String> orgRoles, List<String> permissions, String membershipStatus, String source) {

    static final String FROM_REGISTRY = "registry";
    static final String FROM_ATTRIBUTES = "attributes";

    /** The user attribute with one JSON value per tenant (identityProvider.ts: TENANT_MEMBERSHIPS_ATTRIBUTE). */
    static final String TENANT_MEMBERSHIPS = "tenant_memberships";

    /** membership_status of the only membership that grants its roles and permissions. */
    static final String ACTIVE = "active";

    /** membership_status of a user the tenant has no member record of. */
    static final String NOT_A_MEMBER = "none";

    /** No tenant to speak of (no lookup key, or the registry knows no such tenant): the token gets none of these claims. */
    static final TenantClaims NONE = new TenantClaims(null, null, null, null, null, null, null, null, null);

    /** The registry's 200 body; null when it is not the Claims shape (then the answer counts as a failure). */
    static TenantClaims fromRegistry(JsonNode body) {
        return parse(body, FROM_REGISTRY);
    }

    /**
     * The pushed value of the user's tenant_memberships attribute for one tenant: matched by tenant_id when the token's
     * tenant has one, else by slug. Null when there is none. A value that is not the expected JSON is skipped: the
     * attribute is admin-editable, and a hand-made mistake must not fail a login.
     */
    static TenantClaims fromPushedMemberships(List<String> values, String tenantId, String tenantSlug) {
        for (String value : values) {
            TenantClaims pushed = parse(readJson(value), FROM_ATTRIBUTES);
            if (pushed != null && (tenantId != null ? pushed.tenantId.equalsIgnoreCase(tenantId) : pushed.tenantSlug.equals(tenantSlug))) {
                return pushed;
            }
        }
        return null;
    }

    /** The pushed values the user is an active member by (the registry's pick when a token names no tenant). */
    static List<TenantClaims> activePushedMemberships(List<String> values) {
        List<TenantClaims> active = new ArrayList<>();
        for (String value : values) {
            TenantClaims pushed = parse(readJson(value), FROM_ATTRIBUTES);
            if (pushed != null && ACTIVE.equals(pushed.membershipStatus)) {
                active.add(pushed);
            }
        }
        return active;
    }

    /** The pushed top-level attributes (same names); org_roles may hold comma-separated values, as the registry reads them. */
    static TenantClaims fromAttributes(UserModel user) {
        List<String> orgRoles = user.getAttributeStream("org_roles")
                .flatMap(value -> List.of(value.split(",")).stream())
                .map(String::trim)
                .filter(role -> !role.isEmpty())
                .distinct()
                .collect(Collectors.toList());
        return new TenantClaims(user.getFirstAttribute("tenant_id"), user.getFirstAttribute("tenant_slug"),
                user.getFirstAttribute("plan"), user.getFirstAttribute("tenant_status"),
                user.getAttributeStream("products").collect(Collectors.toList()), orgRoles, null, null, FROM_ATTRIBUTES);
    }

    /** Only which tenant the token is for, when nothing pushed describes it (see PushedClaims). */
    static TenantClaims identityOnly(String tenantId, String tenantSlug) {
        return new TenantClaims(tenantId, tenantSlug, null, null, null, null, null, null, FROM_ATTRIBUTES);
    }

    boolean describes(String otherTenantId, String otherTenantSlug) {
        return (tenantId != null && tenantId.equalsIgnoreCase(Objects.requireNonNullElse(otherTenantId, "")))
                || (tenantSlug != null && tenantSlug.equals(otherTenantSlug));
    }

    /** Whether the claims are those of a member (any status); without a membership_status nothing says so. */
    boolean ofMember() {
        return membershipStatus != null && !NOT_A_MEMBER.equals(membershipStatus);
    }

    /** The claims as the token carries them. */
    Map<String, Object> asClaims() {
        Map<String, Object> claims = new LinkedHashMap<>();
        put(claims, "tenant_id", tenantId);
        put(claims, "tenant_slug", tenantSlug);
        put(claims, "plan", plan);
        put(claims, "tenant_status", tenantStatus);
        put(claims, "products", products);
        put(claims, "org_roles", orgRoles);
        put(claims, "permissions", permissions);
        put(claims, "membership_status", membershipStatus);
        put(claims, "claims_source", source);
        return claims;
    }

    /** The Claims shape (the registry's answer, a pushed value); null when a required field is missing. */
    private static TenantClaims parse(JsonNode body, String source) {
        if (body == null || !body.path("tenant_id").isTextual() || !body.path("tenant_slug").isTextual()
                || !body.path("plan").isTextual() || !body.path("tenant_status").isTextual()) {
            return null;
        }
        JsonNode status = body.path("membership_status");
        // Only an active membership grants anything (SPEC-EXTENSIONS §13): roles a pending, inactive or non-member value
        // carries (one an older registry pushed, or an admin wrote) never reach a token.
        boolean grants = !status.isTextual() || ACTIVE.equals(status.asText());
        return new TenantClaims(body.get("tenant_id").asText(), body.get("tenant_slug").asText(), body.get("plan").asText(),
                body.get("tenant_status").asText(), strings(body.path("products")), grants ? strings(body.path("org_roles")) : List.of(),
                body.has("permissions") ? (grants ? strings(body.get("permissions")) : List.of()) : null,
                status.isTextual() ? status.asText() : null, source);
    }

    private static JsonNode readJson(String value) {
        try {
            return value == null ? null : JsonHttp.JSON.readTree(value);
        } catch (IOException malformed) {
            return null;
        }
    }

    private static void put(Map<String, Object> claims, String name, Object value) {
        if (value != null) {
            claims.put(name, value);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        if (array.isArray()) {
            array.forEach(item -> {
                if (item.isTextual()) {
                    values.add(item.asText());
                }
            });
        }
        return values;
    }
}
