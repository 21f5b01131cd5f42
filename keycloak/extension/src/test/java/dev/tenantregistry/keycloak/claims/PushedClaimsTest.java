package dev.tenantregistry.keycloak.claims;

import static dev.tenantregistry.keycloak.claims.TenantClaimsTest.TENANT_A;
import static dev.tenantregistry.keycloak.claims.TenantClaimsTest.TENANT_B;
import static dev.tenantregistry.keycloak.claims.TenantClaimsTest.pushed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tenantregistry.keycloak.claims.TokenTenant.Basis;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PushedClaimsTest {

    private static final String ADMIN_OF_A = pushed(TENANT_A, "acme", "active", List.of("IT_ADMIN"), List.of("members:manage"));
    private static final String MEMBER_OF_B = pushed(TENANT_B, "globex", "active", List.of("MEMBER"), List.of());
    private static final String INACTIVE_IN_B = pushed(TENANT_B, "globex", "inactive", List.of(), List.of());

    /** The top-level attributes as the registry pushed them before 0.3: tenant A, with roles shared by every organization. */
    private static final TenantClaims TOP_LEVEL_A = new TenantClaims(TENANT_A, "acme", "starter", "trial", List.of(),
            List.of("IT_ADMIN"), null, null, TenantClaims.FROM_ATTRIBUTES);

    private static final TenantClaims NO_TOP_LEVEL = new TenantClaims(null, null, null, null, List.of(), List.of(), null, null,
            TenantClaims.FROM_ATTRIBUTES);

    private static TokenTenant organization(String tenantId, String slug) {
        return new TokenTenant(tenantId, slug, Basis.ORGANIZATION);
    }

    private static TokenTenant asked(String slug) {
        return new TokenTenant(null, slug, Basis.ASKED);
    }

    private static TokenTenant noOrganization(TenantClaims topLevel) {
        return new TokenTenant(topLevel.tenantId(), topLevel.tenantSlug(), Basis.USER);
    }

    @Test
    void aTokenForAnOrganizationGetsTheRolesAndPermissionsOfThatTenantsPushedValue() {
        List<String> values = List.of(ADMIN_OF_A, MEMBER_OF_B);
        TenantClaims forB = PushedClaims.choose(organization(TENANT_B, "globex"), values, TOP_LEVEL_A);
        assertEquals(TENANT_B, forB.tenantId());
        assertEquals(List.of("MEMBER"), forB.orgRoles());
        assertEquals(List.of(), forB.permissions());
        assertEquals("attributes", forB.source());
        TenantClaims forA = PushedClaims.choose(organization(TENANT_A, "acme"), values, TOP_LEVEL_A);
        assertEquals(List.of("IT_ADMIN"), forA.orgRoles());
        assertEquals(List.of("members:manage"), forA.permissions());
    }

    @Test
    void anOrganizationWithoutAPushedValueGetsOnlyWhichTenantItIs() {
        TenantClaims claims = PushedClaims.choose(organization(TENANT_A, "acme"), List.of(MEMBER_OF_B), TOP_LEVEL_A);
        assertEquals(Map.of("tenant_id", TENANT_A, "tenant_slug", "acme", "claims_source", "attributes"), claims.asClaims());
    }

    @Test
    void aUserWithNoPushedValuesYetKeepsTheTopLevelAttributesForTheirTenantOnly() {
        assertSame(TOP_LEVEL_A, PushedClaims.choose(organization(TENANT_A, "acme"), List.of(), TOP_LEVEL_A));
        assertEquals(Map.of("tenant_id", TENANT_B, "tenant_slug", "globex", "claims_source", "attributes"),
                PushedClaims.choose(organization(TENANT_B, "globex"), List.of(), TOP_LEVEL_A).asClaims());
        assertSame(TOP_LEVEL_A, PushedClaims.choose(noOrganization(TOP_LEVEL_A), List.of(), TOP_LEVEL_A));
    }

    @Test
    void anOrganizationAskedForButNotGrantedCountsOnlyThroughAMemberRecord() {
        TenantClaims inactive = PushedClaims.choose(asked("globex"), List.of(ADMIN_OF_A, INACTIVE_IN_B), TOP_LEVEL_A);
        assertEquals("inactive", inactive.membershipStatus());
        assertEquals(List.of(), inactive.orgRoles());
        assertEquals(List.of(), inactive.permissions());
        assertSame(TenantClaims.NONE, PushedClaims.choose(asked("globex"), List.of(ADMIN_OF_A), TOP_LEVEL_A));
        assertSame(TenantClaims.NONE, PushedClaims.choose(asked("acme"), List.of(), TOP_LEVEL_A));
        String notAMember = pushed(TENANT_B, "globex", "none", List.of(), List.of());
        assertSame(TenantClaims.NONE, PushedClaims.choose(asked("globex"), List.of(notAMember), TOP_LEVEL_A));
    }

    @Test
    void withoutAnOrganizationTheSingleActiveMembershipIsTheTenant() {
        TenantClaims claims = PushedClaims.choose(noOrganization(TOP_LEVEL_A), List.of(pushed(TENANT_A, "acme", "inactive",
                List.of(), List.of()), MEMBER_OF_B), TOP_LEVEL_A);
        assertEquals(TENANT_B, claims.tenantId());
        assertEquals(List.of("MEMBER"), claims.orgRoles());
    }

    @Test
    void withoutAnOrganizationAndSeveralActiveMembershipsTheAttributesTenantCountsIfTheUserIsAMemberThere() {
        TenantClaims claims = PushedClaims.choose(noOrganization(TOP_LEVEL_A), List.of(ADMIN_OF_A, MEMBER_OF_B), TOP_LEVEL_A);
        assertEquals(TENANT_A, claims.tenantId());
        assertEquals(List.of("members:manage"), claims.permissions());
        String otherActive = pushed("9d8c7b6a-5f4e-4d3c-8b2a-112233445566", "initech", "active", List.of(), List.of());
        assertSame(TenantClaims.NONE, PushedClaims.choose(noOrganization(TOP_LEVEL_A), List.of(MEMBER_OF_B, otherActive), TOP_LEVEL_A));
        String noneInA = pushed(TENANT_A, "acme", "none", List.of("IT_ADMIN"), List.of());
        assertSame(TenantClaims.NONE, PushedClaims.choose(noOrganization(TOP_LEVEL_A), List.of(MEMBER_OF_B, otherActive, noneInA), TOP_LEVEL_A));
        String inactiveInA = pushed(TENANT_A, "acme", "inactive", List.of(), List.of());
        assertEquals("inactive", PushedClaims.choose(noOrganization(TOP_LEVEL_A), List.of(MEMBER_OF_B, otherActive, inactiveInA),
                TOP_LEVEL_A).membershipStatus());
        assertSame(TenantClaims.NONE, PushedClaims.choose(noOrganization(NO_TOP_LEVEL), List.of(ADMIN_OF_A, MEMBER_OF_B), NO_TOP_LEVEL));
    }
}
