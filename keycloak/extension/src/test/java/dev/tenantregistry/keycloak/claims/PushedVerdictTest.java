package dev.tenantregistry.keycloak.claims;

import static dev.tenantregistry.keycloak.claims.TenantClaimsTest.TENANT_A;
import static dev.tenantregistry.keycloak.claims.TenantClaimsTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PushedVerdictTest {

    private static final long NOW = 1_800_000_000L;
    private static final String DEMO = "tenant-registry-demo-app";
    private static final String REPORTS = "tenant-registry-demo-reports";
    private static final String BILLING = "billing-app";

    /** A pushed value of tenant A with the registry's 0.4 fields; `changes` replace some. */
    private static String pushed(Map<String, Object> changes) {
        Map<String, Object> value = new HashMap<>(Map.of("tenant_id", TENANT_A, "tenant_slug", "acme", "plan", "growth",
                "tenant_status", "active", "products", List.of("analytics"), "org_roles", List.of("MEMBER"), "permissions", List.of(),
                "membership_status", "active", "break_glass", false,
                "sign_in", Map.of("require_sso", false, "mfa", "off")));
        value.put("entitled_clients", List.of(REPORTS));
        value.put("refused_clients", List.of(BILLING));
        value.put("fail_closed_clients", List.of());
        value.putAll(changes);
        return json(value);
    }

    private static Verdict decide(String value, String clientId, List<String> amr, long authTime, boolean throughSso) {
        TenantClaims claims = TenantClaims.fromPushedMemberships(List.of(value), TENANT_A, "acme");
        return PushedVerdict.of(claims, List.of(value), new SignInFacts(clientId, throughSso ? "sso-1" : null, amr, authTime), throughSso, NOW);
    }

    private static String reason(Map<String, Object> changes, String clientId, List<String> amr) {
        return decide(pushed(changes), clientId, amr, NOW - 60, false).reason();
    }

    @Test
    void anActiveMemberOfAnActiveTenantIsAllowedToAClientOfNoProductAndToAnEntitledOne() {
        for (String client : List.of(DEMO, REPORTS)) {
            Verdict verdict = decide(pushed(Map.of()), client, List.of("pwd"), NOW - 60, false);
            assertTrue(verdict.allowed(), client);
            assertEquals("attributes", verdict.source());
        }
    }

    @Test
    void theTenantsStatusThenTheMembersThenTheEntitlementRefuseInTheRegistrysOrder() {
        assertEquals("tenant_archived", reason(Map.of("tenant_status", "archived", "membership_status", "inactive"), DEMO, List.of("pwd")));
        assertEquals("tenant_frozen", reason(Map.of("tenant_status", "frozen", "membership_status", "inactive"), DEMO, List.of("pwd")));
        assertEquals("member_inactive", reason(Map.of("membership_status", "inactive"), BILLING, List.of("pwd")));
        assertEquals("not_a_member", reason(Map.of("membership_status", "none"), DEMO, List.of("pwd")));
        assertEquals("not_entitled", reason(Map.of(), BILLING, List.of("pwd")));
    }

    @Test
    void aPendingMemberMaySignInToAClientOfNoProductOnly() {
        assertNull(reason(Map.of("membership_status", "pending"), DEMO, List.of("pwd")));
        assertEquals("not_a_member", reason(Map.of("membership_status", "pending"), REPORTS, List.of("pwd")));
    }

    @Test
    void requiredSsoRefusesAPasswordButNotTheTenantsSsoNorABreakGlassMember() {
        Map<String, Object> sso = Map.of("sign_in", Map.of("require_sso", true, "mfa", "off"));
        assertEquals("sso_required", reason(sso, DEMO, List.of("pwd")));
        assertTrue(decide(pushed(sso), DEMO, List.of("fed"), NOW - 60, true).allowed());
        Map<String, Object> breakGlass = new HashMap<>(sso);
        breakGlass.put("break_glass", true);
        assertNull(reason(breakGlass, DEMO, List.of("pwd")));
    }

    @Test
    void requiredMfaWantsASecondFactorUnlessTheTenantsSsoSignedTheUserIn() {
        Map<String, Object> mfa = Map.of("sign_in", Map.of("require_sso", false, "mfa", "required"));
        assertEquals("mfa_required", reason(mfa, DEMO, List.of("pwd")));
        assertEquals("mfa_required", reason(mfa, DEMO, List.of()));
        assertNull(reason(mfa, DEMO, List.of("pwd", "otp")));
        assertNull(reason(mfa, DEMO, List.of("hwk")));
        assertTrue(decide(pushed(mfa), DEMO, List.of("fed"), NOW - 60, true).allowed());
    }

    @Test
    void aSessionOlderThanTheTenantAllowsIsRefused() {
        String value = pushed(Map.of("sign_in", Map.of("require_sso", false, "mfa", "off", "session_max_hours", 8)));
        assertTrue(decide(value, DEMO, List.of("pwd"), NOW - 8 * 3600, false).allowed());
        assertEquals("session_too_old", decide(value, DEMO, List.of("pwd"), NOW - 8 * 3600 - 1, false).reason());
    }

    @Test
    void aFailClosedProductIsRefusedWhateverElseThePushedStateSays() {
        Verdict verdict = decide(pushed(Map.of("fail_closed_clients", List.of(REPORTS))), REPORTS, List.of("pwd"), NOW - 60, false);
        assertEquals(Verdict.REGISTRY_UNAVAILABLE, verdict.reason());
        assertTrue(decide(pushed(Map.of("fail_closed_clients", List.of(REPORTS))), DEMO, List.of("pwd"), NOW - 60, false).allowed());
    }

    @Test
    void aUserNoPushedValueNamesIsRefusedAProductsClientOnly() {
        String other = pushed(Map.of("tenant_id", "7c1e2d3f-0a1b-4c2d-8e3f-445566778899", "tenant_slug", "globex"));
        SignInFacts facts = new SignInFacts(REPORTS, null, List.of("pwd"), NOW);
        assertEquals("not_a_member", PushedVerdict.stranger(List.of(other), facts).reason());
        assertTrue(PushedVerdict.stranger(List.of(other), new SignInFacts(DEMO, null, List.of("pwd"), NOW)).allowed());
        assertTrue(PushedVerdict.stranger(List.of(), facts).allowed());
    }
}
