package dev.tenantregistry.keycloak.claims;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TenantClaimsTest {

    static final String TENANT_A = "3b4dc064-a008-464e-be69-ee636e2e2501";
    static final String TENANT_B = "7c1e2d3f-0a1b-4c2d-8e3f-445566778899";

    /** A tenant_memberships value as the registry pushes it (identityProvider.ts: PushedMembership). */
    static String pushed(String tenantId, String slug, String status, List<String> roles, List<String> permissions) {
        return json(Map.of("tenant_id", tenantId, "tenant_slug", slug, "plan", "growth", "tenant_status", "active",
                "products", List.of("analytics"), "org_roles", roles, "permissions", permissions, "membership_status", status));
    }

    static String json(Object value) {
        try {
            return JsonHttp.JSON.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode tree(String text) throws Exception {
        return JsonHttp.JSON.readTree(text);
    }

    @Test
    void theRegistrysPermissionsAndMembershipStatusGoIntoTheToken() throws Exception {
        TenantClaims claims = TenantClaims.fromRegistry(tree(pushed(TENANT_A, "acme", "active", List.of("IT_ADMIN"),
                List.of("audit:read", "members:manage"))));
        Map<String, Object> token = claims.asClaims();
        assertEquals(List.of("IT_ADMIN"), token.get("org_roles"));
        assertEquals(List.of("audit:read", "members:manage"), token.get("permissions"));
        assertEquals("active", token.get("membership_status"));
        assertEquals("registry", token.get("claims_source"));
    }

    @Test
    void anAnswerWithoutMembershipLeavesPermissionsAndStatusOutOfTheToken() throws Exception {
        TenantClaims claims = TenantClaims.fromRegistry(tree(
                "{\"tenant_id\":\"" + TENANT_A + "\",\"tenant_slug\":\"acme\",\"plan\":\"starter\",\"tenant_status\":\"trial\"}"));
        assertFalse(claims.asClaims().containsKey("permissions"));
        assertFalse(claims.asClaims().containsKey("membership_status"));
        assertFalse(claims.ofMember());
    }

    @Test
    void anAnswerWithoutTheClaimsShapeIsNoAnswer() throws Exception {
        assertNull(TenantClaims.fromRegistry(tree("{\"tenant_id\":\"" + TENANT_A + "\",\"tenant_slug\":\"acme\"}")));
        assertNull(TenantClaims.fromRegistry(null));
    }

    @Test
    void onlyAnActiveMembershipGrantsRolesAndPermissionsWhateverTheValueCarries() throws Exception {
        for (String status : List.of("pending", "inactive", "none")) {
            String carried = pushed(TENANT_A, "acme", status, List.of("IT_ADMIN"), List.of("members:manage"));
            for (TenantClaims claims : List.of(TenantClaims.fromRegistry(tree(carried)),
                    TenantClaims.fromPushedMemberships(List.of(carried), TENANT_A, "acme"))) {
                assertEquals(List.of(), claims.orgRoles(), status);
                assertEquals(List.of(), claims.permissions(), status);
                assertEquals(status, claims.membershipStatus());
            }
        }
        TenantClaims active = TenantClaims.fromRegistry(tree(pushed(TENANT_A, "acme", "active", List.of("IT_ADMIN"), List.of("members:manage"))));
        assertEquals(List.of("IT_ADMIN"), active.orgRoles());
        assertEquals(List.of("members:manage"), active.permissions());
    }

    @Test
    void onlyARecordWithAStatusOtherThanNoneIsAMember() throws Exception {
        assertTrue(TenantClaims.fromRegistry(tree(pushed(TENANT_A, "acme", "inactive", List.of(), List.of()))).ofMember());
        assertTrue(TenantClaims.fromRegistry(tree(pushed(TENANT_A, "acme", "pending", List.of(), List.of()))).ofMember());
        assertFalse(TenantClaims.fromRegistry(tree(pushed(TENANT_A, "acme", "none", List.of(), List.of()))).ofMember());
        assertFalse(TenantClaims.NONE.ofMember());
    }

    @Test
    void thePushedValueOfTheTokensTenantIsFoundByIdElseBySlug() {
        List<String> values = List.of(
                pushed(TENANT_A, "acme", "active", List.of("IT_ADMIN"), List.of("members:manage")),
                pushed(TENANT_B, "globex", "active", List.of("MEMBER"), List.of()));
        TenantClaims byId = TenantClaims.fromPushedMemberships(values, TENANT_B.toUpperCase(), "not-the-slug");
        assertEquals("globex", byId.tenantSlug());
        assertEquals(List.of("MEMBER"), byId.orgRoles());
        assertEquals("attributes", byId.source());
        TenantClaims bySlug = TenantClaims.fromPushedMemberships(values, null, "acme");
        assertEquals(TENANT_A, bySlug.tenantId());
        assertEquals(List.of("members:manage"), bySlug.permissions());
        assertNull(TenantClaims.fromPushedMemberships(values, null, "initech"));
    }

    @Test
    void aMalformedPushedValueIsSkipped() {
        List<String> values = List.of("not json", "[1,2]", "\"acme\"", "", "{\"tenant_slug\":\"acme\"}",
                "{\"tenant_id\":\"" + TENANT_A + "\",\"tenant_slug\":\"acme\",\"plan\":7,\"tenant_status\":\"active\"}",
                pushed(TENANT_A, "acme", "inactive", List.of(), List.of()));
        TenantClaims claims = TenantClaims.fromPushedMemberships(values, TENANT_A, "acme");
        assertEquals("inactive", claims.membershipStatus());
        assertNull(TenantClaims.fromPushedMemberships(values.subList(0, 6), TENANT_A, "acme"));
    }

    @Test
    void aPushedValueKeepsOnlyTheStringsOfItsArrays() {
        String value = "{\"tenant_id\":\"" + TENANT_A + "\",\"tenant_slug\":\"acme\",\"plan\":\"growth\",\"tenant_status\":\"active\","
                + "\"products\":\"analytics\",\"org_roles\":[\"IT_ADMIN\",3,null],\"permissions\":[{\"slug\":\"x\"}],\"membership_status\":\"active\"}";
        TenantClaims claims = TenantClaims.fromPushedMemberships(List.of(value), TENANT_A, "acme");
        assertEquals(List.of(), claims.products());
        assertEquals(List.of("IT_ADMIN"), claims.orgRoles());
        assertEquals(List.of(), claims.permissions());
    }
}
