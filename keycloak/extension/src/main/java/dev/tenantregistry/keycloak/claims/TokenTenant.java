package dev.tenantregistry.keycloak.claims;

import java.util.List;
import java.util.Optional;
import org.keycloak.models.ClientSessionContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.OrganizationModel;
import org.keycloak.models.UserModel;
import org.keycloak.organization.protocol.mappers.oidc.OrganizationScope;
import org.keycloak.organization.utils.Organizations;

/**
 * The tenant a token is for. A token requested for one organization (scope {@code organization:<alias>}, or
 * {@code organization} where Keycloak settled on one) is for that organization's tenant: the organization's
 * {@code tenant_id} attribute (the registry sets it) or else its alias, which is the tenant's slug. Otherwise it is
 * the tenant named by the user's own attributes. Membership is Keycloak's to check: it grants an organization scope
 * only to a member, so this class never names a tenant the user does not belong to.
 */
record TokenTenant(String tenantId, String tenantSlug, boolean fromOrganization) {

    /** Empty when neither an organization nor the user's attributes name a tenant. */
    static Optional<TokenTenant> of(KeycloakSession session, UserModel user, ClientSessionContext context) {
        Optional<OrganizationModel> organization = organizationOf(session, user, context);
        if (organization.isPresent()) {
            OrganizationModel org = organization.get();
            List<String> ids = org.getAttributes() == null ? null : org.getAttributes().get("tenant_id");
            String id = ids == null || ids.isEmpty() ? null : ids.get(0);
            return Optional.of(new TokenTenant(id, org.getAlias(), true));
        }
        String id = user.getFirstAttribute("tenant_id");
        String slug = user.getFirstAttribute("tenant_slug");
        return id == null && slug == null ? Optional.empty() : Optional.of(new TokenTenant(id, slug, false));
    }

    private static Optional<OrganizationModel> organizationOf(KeycloakSession session, UserModel user, ClientSessionContext context) {
        if (!Organizations.isEnabled(session)) {
            return Optional.empty();
        }
        // The token's own scope decides, not what the (shared) client session last noted: a refresh token asked for
        // organization:b stays for b after the same browser signed in for organization:a. Keycloak resolves `organization`
        // with several memberships to the one the user picked; organization:* grants them all, so no single tenant, and
        // the user's own attributes decide.
        String scopes = context.getScopeString();
        OrganizationScope scope = OrganizationScope.valueOfScope(session, scopes);
        if (scope == null) {
            return Optional.empty();
        }
        List<OrganizationModel> granted = scope.resolveOrganizations(user, scopes, session).limit(2).toList();
        return granted.size() == 1 ? Optional.of(granted.get(0)) : Optional.empty();
    }
}
