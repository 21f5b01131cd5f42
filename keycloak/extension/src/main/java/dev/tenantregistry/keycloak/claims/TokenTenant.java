package dev.tenantregistry.keycloak.claims;

import java.util.List;
import java.util.Optional;
import org.keycloak.OAuth2Constants;
import org.keycloak.models.ClientSessionContext;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.OrganizationModel;
import org.keycloak.models.UserModel;
import org.keycloak.organization.protocol.mappers.oidc.OrganizationScope;
import org.keycloak.organization.utils.Organizations;
import org.keycloak.protocol.oidc.OIDCLoginProtocol;

/**
 * The tenant a token is for, and who vouches that the user belongs to it.
 *
 * <ul>
 *   <li>{@link Basis#ORGANIZATION}: an organization Keycloak resolved for the token (scope {@code organization:<alias>},
 *   or {@code organization} where Keycloak settled on one). Keycloak grants it only to a member, so it vouches. The
 *   tenant is the organization's {@code tenant_id} attribute (the registry sets it), else its alias, the tenant's slug.</li>
 *   <li>{@link Basis#ASKED}: a sign-in asked for one organization ({@code organization:<alias>}) that Keycloak did not
 *   grant: the user is no longer a member there in Keycloak (the registry takes a deactivated member out of the
 *   organization). The registry is still asked for that tenant, but only its member record may vouch: a deactivated
 *   member gets the tenant with status inactive and no roles, a stranger gets nothing.</li>
 *   <li>{@link Basis#USER}: no organization. The registry picks among the user's memberships; the user's own
 *   {@code tenant_id}/{@code tenant_slug} attributes are carried for the fallback.</li>
 * </ul>
 */
record TokenTenant(String tenantId, String tenantSlug, Basis basis) {

    enum Basis { ORGANIZATION, ASKED, USER }

    /** Whether the registry is asked for this tenant by name (else it picks among the user's memberships). */
    boolean named() {
        return basis != Basis.USER;
    }

    /** Whether Keycloak vouches for the membership, so an answer for a user the registry has no record of still counts. */
    boolean vouched() {
        return basis == Basis.ORGANIZATION;
    }

    static TokenTenant of(KeycloakSession session, UserModel user, ClientSessionContext context) {
        return of(session, user, context.getScopeString(), requestedScope(context));
    }

    /**
     * The tenant of a sign-in before any token: the scope it asked for stands for both the granted scope and the asked
     * one (Keycloak grants an organization scope only to a member, as at the code exchange that follows).
     */
    static TokenTenant ofSignIn(KeycloakSession session, UserModel user, String requestedScope) {
        return of(session, user, requestedScope, requestedScope);
    }

    private static TokenTenant of(KeycloakSession session, UserModel user, String grantedScopes, String requestedScope) {
        if (Organizations.isEnabled(session)) {
            Optional<OrganizationModel> organization = grantedOrganization(session, user, grantedScopes);
            if (organization.isPresent()) {
                OrganizationModel org = organization.get();
                List<String> ids = org.getAttributes() == null ? null : org.getAttributes().get("tenant_id");
                String id = ids == null || ids.isEmpty() ? null : ids.get(0);
                return new TokenTenant(id, org.getAlias(), Basis.ORGANIZATION);
            }
            Optional<String> asked = askedAlias(session, requestedScope);
            if (asked.isPresent()) {
                return new TokenTenant(null, asked.get(), Basis.ASKED);
            }
        }
        return new TokenTenant(user.getFirstAttribute("tenant_id"), user.getFirstAttribute("tenant_slug"), Basis.USER);
    }

    private static Optional<OrganizationModel> grantedOrganization(KeycloakSession session, UserModel user, String scopes) {
        // The token's own scope decides, not what the (shared) client session last noted: a refresh token asked for
        // organization:b stays for b after the same browser signed in for organization:a. Keycloak resolves `organization`
        // with several memberships to the one the user picked; organization:* grants them all, so no single tenant.
        if (scopes == null) {
            return Optional.empty();
        }
        OrganizationScope scope = OrganizationScope.valueOfScope(session, scopes);
        if (scope == null) {
            return Optional.empty();
        }
        List<OrganizationModel> granted = scope.resolveOrganizations(user, scopes, session).limit(2).toList();
        return granted.size() == 1 ? Optional.of(granted.get(0)) : Optional.empty();
    }

    /**
     * The scope a sign-in asked for, before Keycloak dropped the organizations the user is not a member of: the client
     * session's note, from which Keycloak builds the granted scope of the code exchange itself. A refresh asks for
     * nothing more than its token was granted: Keycloak refuses one for an organization the user has left
     * (invalid_grant, "Invalid organization"), and the shared note may be another sign-in's by then.
     */
    private static String requestedScope(ClientSessionContext context) {
        if (OAuth2Constants.REFRESH_TOKEN.equals(context.getAttribute(OAuth2Constants.GRANT_TYPE, String.class))) {
            return null;
        }
        return context.getClientSession().getNote(OIDCLoginProtocol.SCOPE_PARAM);
    }

    /** The alias of {@code organization:<alias>} among the scopes, when exactly one is named. */
    private static Optional<String> askedAlias(KeycloakSession session, String scopes) {
        if (scopes == null) {
            return Optional.empty();
        }
        List<String> aliases = List.of(scopes.trim().split("\\s+")).stream()
                .filter(scope -> OrganizationScope.valueOfScope(session, scope) == OrganizationScope.SPECIFIC)
                .map(scope -> scope.substring(scope.lastIndexOf(':') + 1))
                .filter(alias -> !alias.isEmpty())
                .distinct()
                .limit(2)
                .toList();
        return aliases.size() == 1 ? Optional.of(aliases.get(0)) : Optional.empty();
    }
}
