package dev.tenantregistry.keycloak.claims;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.keycloak.authentication.authenticators.util.AuthenticatorUtils;
import org.keycloak.events.Details;
import org.keycloak.models.AuthenticationExecutionModel;
import org.keycloak.models.Constants;
import org.keycloak.models.RealmModel;
import org.keycloak.services.managers.AuthenticationManager;

/**
 * What the registry is told about a sign-in besides who and which tenant (SPEC-EXTENSIONS §15): the client the token is
 * for, the identity provider the user came through (none for a password), the authentication methods (RFC 8176 values)
 * and when the user authenticated (seconds since the epoch). Read from the user session's notes at a token issuance, or
 * from the authentication session's at the sign-in itself: the same notes, before and after Keycloak copies them.
 */
public record SignInFacts(String clientId, String identityProvider, List<String> amr, Long authTime) {

    /** A user-session note: the sign-in set up a second factor (Keycloak's OTP set-up asks for a valid code). */
    public static final String SECOND_FACTOR_SET_UP = "tenant-registry.second-factor-set-up";

    /** Facts of the sign-in whose notes these are; `notes` are the user session's (or the sign-in's to-be) notes. */
    public static SignInFacts of(String clientId, RealmModel realm, Map<String, String> notes, long nowSeconds) {
        String authTime = notes.get(AuthenticationManager.AUTH_TIME);
        Long seconds = null;
        try {
            seconds = authTime == null ? null : Long.valueOf(authTime);
        } catch (NumberFormatException malformed) {
            // an unreadable note tells nothing about the session's age
        }
        return new SignInFacts(clientId, notes.get(Details.IDENTITY_PROVIDER), methods(realm, notes), seconds == null ? nowSeconds : seconds);
    }

    /** The methods of the executions the session completed, as Keycloak's own AMR mapper reads them, by authenticator. */
    static List<String> methods(RealmModel realm, Map<String, String> notes) {
        List<String> amr = new ArrayList<>();
        String completedNote = notes.get(Constants.AUTHENTICATORS_COMPLETED);
        Map<String, Integer> completed = completedNote == null ? Map.of() : AuthenticatorUtils.parseCompletedExecutions(completedNote);
        for (String executionId : completed.keySet()) {
            AuthenticationExecutionModel execution = realm.getAuthenticationExecutionById(executionId);
            String method = execution == null ? null : methodOf(execution.getAuthenticator());
            if (method != null && !amr.contains(method)) {
                amr.add(method);
            }
        }
        if (notes.get(Details.IDENTITY_PROVIDER) != null && !amr.contains("fed")) {
            amr.add("fed");
        }
        if (notes.get(SECOND_FACTOR_SET_UP) != null && !amr.contains("otp")) {
            amr.add("otp");
        }
        return amr;
    }

    static String methodOf(String authenticator) {
        if (authenticator == null) {
            return null;
        }
        return switch (authenticator) {
            case "auth-username-password-form", "auth-password-form", "idp-username-password-form", "direct-grant-validate-password" -> "pwd";
            case "auth-otp-form", "direct-grant-validate-otp" -> "otp";
            case "webauthn-authenticator", "webauthn-authenticator-passwordless" -> "hwk";
            default -> null;
        };
    }
}
