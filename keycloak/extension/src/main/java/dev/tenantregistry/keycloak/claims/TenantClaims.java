package dev.tenantregistry.keycloak.claims;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.keycloak.models.UserModel;

/**
 * The claims a token gets, and where they came from: the registry's answer, or the attributes last pushed into the
 * user. Absent values are left out of the token rather than written as null. Names are the registry's (SPEC.md).
 */
record TenantClaims(String tenantId, String tenantSlug, String plan, String tenantStatus, List<String> products,
                    List<String> orgRoles, String source) {

    static final String FROM_REGISTRY = "registry";
    static final String FROM_ATTRIBUTES = "attributes";

    /** No tenant to speak of (no lookup key, or the registry knows no such tenant): the token gets none of these claims. */
    static final TenantClaims NONE = new TenantClaims(null, null, null, null, null, null, null);

    /** The registry's 200 body; null when it is not the Claims shape (then the answer counts as a failure). */
    static TenantClaims fromRegistry(JsonNode body) {
        if (body == null || !body.path("tenant_id").isTextual() || !body.path("tenant_slug").isTextual()
                || !body.path("plan").isTextual() || !body.path("tenant_status").isTextual()) {
            return null;
        }
        return new TenantClaims(body.get("tenant_id").asText(), body.get("tenant_slug").asText(), body.get("plan").asText(),
                body.get("tenant_status").asText(), strings(body.path("products")), strings(body.path("org_roles")), FROM_REGISTRY);
    }

    /** The pushed attributes (same names); org_roles may hold comma-separated values, as the registry reads them. */
    static TenantClaims fromAttributes(UserModel user) {
        List<String> orgRoles = user.getAttributeStream("org_roles")
                .flatMap(value -> List.of(value.split(",")).stream())
                .map(String::trim)
                .filter(role -> !role.isEmpty())
                .distinct()
                .collect(Collectors.toList());
        return new TenantClaims(user.getFirstAttribute("tenant_id"), user.getFirstAttribute("tenant_slug"),
                user.getFirstAttribute("plan"), user.getFirstAttribute("tenant_status"),
                user.getAttributeStream("products").collect(Collectors.toList()), orgRoles, FROM_ATTRIBUTES);
    }

    /** Only which tenant the token is for, when the pushed attributes describe another one (see TokenTenant). */
    static TenantClaims identityOnly(String tenantId, String tenantSlug) {
        return new TenantClaims(tenantId, tenantSlug, null, null, null, null, FROM_ATTRIBUTES);
    }

    boolean describes(String otherTenantId, String otherTenantSlug) {
        return (tenantId != null && tenantId.equalsIgnoreCase(Objects.requireNonNullElse(otherTenantId, "")))
                || (tenantSlug != null && tenantSlug.equals(otherTenantSlug));
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
        put(claims, "claims_source", source);
        return claims;
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
