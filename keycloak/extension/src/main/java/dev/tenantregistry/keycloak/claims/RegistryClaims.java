package dev.tenantregistry.keycloak.claims;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.keycloak.models.UserModel;

/**
 * POST /v1/internal/idp/claims for one token: the user's id (the registry answers with the member's roles, permissions
 * and membership status in the tenant), the tenant the token is for when it names one, and the user's claim attributes
 * as user_attrs (the registry reads tenant_id and tenant_slug there when no tenant is named; the user's other
 * attributes, names and e-mail among them, are none of its business and stay in Keycloak). With the sign-in's facts
 * (client, identity provider, amr, auth_time) the same answer carries the registry's decision on the sign-in.
 */
final class RegistryClaims {

    /** A failure the mapper answers with the pushed attributes; its message is safe to log (no secret, no token). */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    private static final String[] SENT_ATTRIBUTES = {"tenant_id", "tenant_slug", "org_roles"};

    private final ServiceTokens serviceTokens;

    RegistryClaims(ServiceTokens serviceTokens) {
        this.serviceTokens = serviceTokens;
    }

    /**
     * The registry's claims and decision; TenantClaims.NONE and no decision when it answers 404 (no such tenant, or
     * none of the user's to pick: the registry has no tenant to judge the sign-in by). clientSecret and tokenEndpoint
     * are resolved by the caller when settings.clientId() is set.
     */
    RegistryAnswer resolve(MapperSettings settings, String clientSecret, URI tokenEndpoint, TokenTenant tenant, UserModel user,
                           SignInFacts facts) throws Unavailable, InterruptedException {
        Deadline deadline = Deadline.in(settings.timeout());
        Map<String, Object> body = new LinkedHashMap<>();
        if (tenant.named()) {
            if (tenant.tenantId() != null) {
                body.put("tenant_id", tenant.tenantId());
            } else {
                body.put("tenant_slug", tenant.tenantSlug());
            }
        }
        body.put("user_id", user.getId());
        body.put("user_attrs", attributesOf(user));
        if (facts != null) {
            if (facts.clientId() != null) {
                body.put("client_id", facts.clientId());
            }
            if (facts.identityProvider() != null) {
                body.put("identity_provider", facts.identityProvider());
            }
            body.put("amr", facts.amr());
            if (facts.authTime() != null) {
                body.put("auth_time", facts.authTime());
            }
        }
        try {
            String token = settings.clientId() == null ? null
                    : serviceTokens.token(tokenEndpoint, settings.clientId(), clientSecret, deadline);
            JsonHttp.Answer answer = RegistryRequests.send(settings.claimsEndpoint(), body, token, deadline);
            if (answer.status() == 401 && token != null) {
                // A token the registry no longer takes (its keys rotated, the session ended): one fresh try.
                serviceTokens.forget(tokenEndpoint, settings.clientId(), token);
                token = serviceTokens.token(tokenEndpoint, settings.clientId(), clientSecret, deadline);
                answer = RegistryRequests.send(settings.claimsEndpoint(), body, token, deadline);
            }
            if (answer.status() == 404) {
                return new RegistryAnswer(TenantClaims.NONE, null);
            }
            if (answer.status() != 200) {
                String error = answer.body() == null ? "" : " " + answer.body().path("error").asText("");
                throw new Unavailable("registry answered HTTP " + answer.status() + error);
            }
            TenantClaims claims = TenantClaims.fromRegistry(answer.body());
            if (claims == null) {
                throw new Unavailable("registry answered 200 without the Claims shape");
            }
            return new RegistryAnswer(claims, Verdict.fromRegistry(answer.body()));
        } catch (TimeoutException e) {
            throw new Unavailable("no answer within " + settings.timeout().toMillis() + " ms");
        } catch (IOException e) {
            throw new Unavailable(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static Map<String, String> attributesOf(UserModel user) {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (String name : SENT_ATTRIBUTES) {
            String joined = user.getAttributeStream(name).collect(Collectors.joining(","));
            if (!joined.isEmpty()) {
                attributes.put(name, joined);
            }
        }
        return attributes;
    }
}
