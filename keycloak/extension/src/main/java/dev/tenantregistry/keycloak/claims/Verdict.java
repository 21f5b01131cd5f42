package dev.tenantregistry.keycloak.claims;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a sign-in, code exchange or refresh may go on (SPEC-EXTENSIONS §15), with the registry's reason when not, and
 * where the decision came from: the registry's answer, the attributes it last pushed, or neither (a product that fails
 * closed while the registry cannot be asked).
 */
public record Verdict(boolean allowed, String reason, String source) {

    /** The reason of a refusal the registry did not make: it could not be asked, and the client's product fails closed. */
    public static final String REGISTRY_UNAVAILABLE = "registry_unavailable";

    public static final Verdict ALLOW = new Verdict(true, null, null);

    static Verdict deny(String reason, String source) {
        return new Verdict(false, reason, source);
    }

    /** The registry's decision; a registry that answers without one (older than 0.4) allows, as it did. */
    static Verdict fromRegistry(JsonNode body) {
        if (body != null && "deny".equals(body.path("decision").asText(""))) {
            String reason = body.path("reason").asText("");
            return deny(reason.isEmpty() ? "denied" : reason, TenantClaims.FROM_REGISTRY);
        }
        return new Verdict(true, null, TenantClaims.FROM_REGISTRY);
    }

    /** What the person is told on Keycloak's error page (no apostrophe: the page formats it as a MessageFormat). */
    public String message() {
        return switch (reason == null ? "" : reason) {
            case "tenant_frozen" -> "The account of your organization is frozen, so you cannot sign in to it. Ask the administrator of your organization.";
            case "tenant_archived" -> "The account of your organization is closed, so you cannot sign in to it.";
            case "not_a_member" -> "You are not a member of this organization.";
            case "member_inactive" -> "Your membership in this organization is deactivated. Ask the administrator of your organization.";
            case "not_entitled" -> "Your organization has no subscription to this application.";
            case "sso_required" -> "Your organization requires you to sign in through its own single sign-on. Sign in with the account your organization gave you.";
            case "mfa_required" -> "Your organization requires a second factor. Sign out and sign in again with your authenticator app.";
            case "session_too_old" -> "Your session is older than your organization allows. Sign in again.";
            case REGISTRY_UNAVAILABLE -> "Your sign-in cannot be checked right now. Please try again in a moment.";
            default -> "Your organization does not allow this sign-in.";
        };
    }
}
