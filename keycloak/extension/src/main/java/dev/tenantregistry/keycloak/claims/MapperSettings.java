package dev.tenantregistry.keycloak.claims;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.keycloak.provider.ProviderConfigProperty;

/**
 * The settings of one tenant-registry-claims mapper, as the admin console shows and stores them. Checked when a mapper
 * is saved (TenantRegistryClaimsMapper#validateConfig) and read again at each issuance, so a mapper imported with bad
 * settings falls back to the pushed attributes instead of failing logins.
 */
record MapperSettings(URI registryUrl, Duration timeout, String clientId, String clientSecret, URI tokenEndpoint) {

    static final String REGISTRY_URL = "registry.url";
    static final String TIMEOUT_MS = "timeout.ms";
    static final String CLIENT_ID = "client.id";
    static final String CLIENT_SECRET = "client.secret";
    static final String TOKEN_ENDPOINT = "token.endpoint";

    static final int DEFAULT_TIMEOUT_MS = 500;
    private static final int MAX_TIMEOUT_MS = 10_000;

    static List<ProviderConfigProperty> properties() {
        return List.of(
                property(REGISTRY_URL, "Registry URL", "Base URL of the tenant registry, e.g. http://tenant-registry:8080. "
                        + "The mapper POSTs /v1/internal/idp/claims there at every token issuance.", ProviderConfigProperty.STRING_TYPE, null),
                property(TIMEOUT_MS, "Timeout (ms)", "Budget for the whole registry call, service token included (1 to "
                        + MAX_TIMEOUT_MS + "). Past it, the token carries the user's pushed attributes and claims_source \"attributes\".",
                        ProviderConfigProperty.STRING_TYPE, String.valueOf(DEFAULT_TIMEOUT_MS)),
                property(CLIENT_ID, "Service client id", "A confidential client of this realm with service accounts, whose "
                        + "client-credentials token the registry accepts (AUTH_ENABLED). Empty: the registry is called without a token.",
                        ProviderConfigProperty.STRING_TYPE, null),
                property(CLIENT_SECRET, "Service client secret", "That client's secret. Empty: the mapper reads it from the "
                        + "client in this realm, so it need not be copied here.", ProviderConfigProperty.PASSWORD, null),
                property(TOKEN_ENDPOINT, "Token endpoint", "Where the mapper asks for the service token. Empty: this realm's "
                        + "token endpoint at Keycloak's backchannel URL. Set it when Keycloak cannot reach its own public URL.",
                        ProviderConfigProperty.STRING_TYPE, null));
    }

    /** Throws IllegalArgumentException naming the setting that is wrong. */
    static MapperSettings from(Map<String, String> config) {
        URI registry = httpUrl(config.get(REGISTRY_URL), "Registry URL", true);
        String timeoutText = blankToNull(config.get(TIMEOUT_MS));
        int timeoutMs;
        try {
            timeoutMs = timeoutText == null ? DEFAULT_TIMEOUT_MS : Integer.parseInt(timeoutText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Timeout (ms) must be a whole number of milliseconds");
        }
        if (timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS) {
            throw new IllegalArgumentException("Timeout (ms) must be between 1 and " + MAX_TIMEOUT_MS);
        }
        return new MapperSettings(registry, Duration.ofMillis(timeoutMs), blankToNull(config.get(CLIENT_ID)),
                blankToNull(config.get(CLIENT_SECRET)), httpUrl(config.get(TOKEN_ENDPOINT), "Token endpoint", false));
    }

    URI claimsEndpoint() {
        String base = registryUrl.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/internal/idp/claims");
    }

    private static URI httpUrl(String value, String label, boolean required) {
        String text = blankToNull(value);
        if (text == null) {
            if (required) {
                throw new IllegalArgumentException(label + " is required");
            }
            return null;
        }
        try {
            URI uri = URI.create(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException malformed) {
            // reported below, with the setting's name
        }
        throw new IllegalArgumentException(label + " must be an absolute http(s) URL");
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    private static ProviderConfigProperty property(String name, String label, String help, String type, String defaultValue) {
        ProviderConfigProperty property = new ProviderConfigProperty(name, label, help, type, defaultValue);
        if (ProviderConfigProperty.PASSWORD.equals(type)) {
            property.setSecret(true);
        }
        return property;
    }
}
