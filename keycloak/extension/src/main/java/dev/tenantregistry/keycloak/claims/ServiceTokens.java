package dev.tenantregistry.keycloak.claims;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeoutException;

/**
 * Client-credentials tokens the mapper presents to a registry with AUTH_ENABLED, asked from the realm's own token
 * endpoint over HTTP: the token then carries exactly what the client's scopes and audience mappers give it, as any
 * other caller's would. Each is cached until shortly before it expires, so a token issuance normally costs one call.
 */
final class ServiceTokens {

    /** Renew this long before expiry (or at half the lifetime for short-lived tokens). */
    private static final long RENEW_EARLY_SECONDS = 30;

    private record Cached(String value, long renewAtMillis) {
    }

    private final ConcurrentMap<String, Cached> cache = new ConcurrentHashMap<>();

    String token(URI tokenEndpoint, String clientId, String clientSecret, Deadline deadline)
            throws IOException, TimeoutException, InterruptedException {
        String key = tokenEndpoint + " " + clientId;
        Cached cached = cache.get(key);
        if (cached != null && System.currentTimeMillis() < cached.renewAtMillis()) {
            return cached.value();
        }
        // RFC 6749 2.3.1: client id and secret form-encoded, then Basic.
        String credentials = Base64.getEncoder().encodeToString(
                (form(clientId) + ":" + form(clientSecret)).getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(tokenEndpoint)
                .header("Authorization", "Basic " + credentials)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials"));
        JsonHttp.Answer answer = JsonHttp.send(request, deadline);
        JsonNode body = answer.body();
        if (answer.status() != 200 || body == null || !body.path("access_token").isTextual()) {
            // The error code only: the body of a token endpoint is safe, but nothing of the request is logged.
            String error = body == null ? "" : body.path("error").asText("");
            throw new IOException("service token for client " + clientId + ": HTTP " + answer.status() + (error.isEmpty() ? "" : " " + error));
        }
        long lifetime = Math.max(body.path("expires_in").asLong(60), 1);
        long renewIn = lifetime - Math.min(RENEW_EARLY_SECONDS, lifetime / 2);
        String value = body.get("access_token").asText();
        cache.put(key, new Cached(value, System.currentTimeMillis() + renewIn * 1000));
        return value;
    }

    /** Drops a token the registry refused (revoked session, rotated keys), so the next call asks for a new one. */
    void forget(URI tokenEndpoint, String clientId, String value) {
        cache.computeIfPresent(tokenEndpoint + " " + clientId, (key, cached) -> cached.value().equals(value) ? null : cached);
    }

    private static String form(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
