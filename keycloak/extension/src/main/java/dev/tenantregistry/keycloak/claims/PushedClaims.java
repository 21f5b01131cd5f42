package dev.tenantregistry.keycloak.claims;

import java.util.List;
import org.keycloak.models.UserModel;

/**
 * The claims of a token while the registry cannot answer: what it last pushed into the user. The registry pushes one
 * value per tenant into tenant_memberships (the member's roles, permissions and status there, with the tenant's plan,
 * status and products); before those, the top-level attributes described one tenant. The choice follows the
 * registry's own (a member record decides), so a token says the same with the registry down, only possibly older.
 */
final class PushedClaims {

    private PushedClaims() {
    }

    static TenantClaims of(TokenTenant tenant, UserModel user) {
        return choose(tenant, user.getAttributeStream(TenantClaims.TENANT_MEMBERSHIPS).toList(), TenantClaims.fromAttributes(user));
    }

    /**
     * The top-level attributes count only for a user the registry has pushed no tenant_memberships into yet (pushed
     * before 0.3): once it has, a tenant without a value is one the user was not a member of at the last push.
     * <ul>
     *   <li>An organization Keycloak vouches for: its tenant's value; else the top-level attributes if they describe
     *   that tenant; else only which tenant it is (another tenant's plan and products would be wrong, worse than none).</li>
     *   <li>An organization asked for but not granted: its tenant's value if it says the user is a member there (a
     *   deactivated member's says inactive, with no roles); else no tenant claims.</li>
     *   <li>No organization: the single active membership; else the value of the attributes' tenant if the user is a
     *   member there; else the top-level attributes.</li>
     * </ul>
     */
    static TenantClaims choose(TokenTenant tenant, List<String> memberships, TenantClaims topLevel) {
        boolean topLevelCounts = memberships.isEmpty();
        switch (tenant.basis()) {
            case ORGANIZATION -> {
                TenantClaims pushed = TenantClaims.fromPushedMemberships(memberships, tenant.tenantId(), tenant.tenantSlug());
                if (pushed != null) {
                    return pushed;
                }
                return topLevelCounts && topLevel.describes(tenant.tenantId(), tenant.tenantSlug())
                        ? topLevel : TenantClaims.identityOnly(tenant.tenantId(), tenant.tenantSlug());
            }
            case ASKED -> {
                TenantClaims pushed = TenantClaims.fromPushedMemberships(memberships, tenant.tenantId(), tenant.tenantSlug());
                return pushed != null && pushed.ofMember() ? pushed : TenantClaims.NONE;
            }
            default -> {
                List<TenantClaims> active = TenantClaims.activePushedMemberships(memberships);
                if (active.size() == 1) {
                    return active.get(0);
                }
                if (tenant.tenantId() == null && tenant.tenantSlug() == null) {
                    return TenantClaims.NONE;
                }
                TenantClaims pushed = TenantClaims.fromPushedMemberships(memberships, tenant.tenantId(), tenant.tenantSlug());
                if (pushed != null) {
                    return pushed.ofMember() ? pushed : TenantClaims.NONE;
                }
                return topLevelCounts ? topLevel : TenantClaims.NONE;
            }
        }
    }
}
