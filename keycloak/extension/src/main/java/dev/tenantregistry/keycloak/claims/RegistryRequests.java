package dev.tenantregistry.keycloak.claims;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import com.fasterxml.jackson.databind.JsonNode;
import org.keycloak.models.ClientModel;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.ProtocolMapperModel;
import org.keycloak.models.RealmModel;

/**
 * A call to the registry for something other than claims (an invitation's link), made as the client's
 * tenant-registry-claims mapper makes its own: to the registry URL it is set to, with its service token. The client
 * is the one a flow is for (an invite's client); when it has no such mapper, the realm's first client (by client id)
 * that has one says where the registry is. Without any there is no registry to ask.
 */
public final class RegistryRequests {

    /** The registry's status and JSON body (null when empty or not JSON). */
    public record Answer(int status, JsonNode body) {
    }

    /** Calls that decide a person's next page get more than a token issuance's budget, but not much more. */
    private static final Duration LEAST_TIMEOUT = Duration.ofSeconds(3);

    private static final ServiceTokens SERVICE_TOKENS = new ServiceTokens();

    private RegistryRequests() {
    }

    /**
     * Where and as whom the registry is called, read from the realm's model now: a call made after the request's
     * transaction (an event listener's after-completion work) has no model to read.
     */
    public record Target(URI base, Duration timeout, String clientId, String clientSecret, URI tokenEndpoint) {
    }

    public static Target target(KeycloakSession session, RealmModel realm, ClientModel client) throws IOException {
        ProtocolMapperModel mapper = Optional.ofNullable(client).flatMap(RegistryRequests::claimsMapperOf)
                .or(() -> realm.getClientsStream().sorted(Comparator.comparing(ClientModel::getClientId)).flatMap(c -> claimsMapperOf(c).stream()).findFirst())
                .orElseThrow(() -> new IOException("no client of realm " + realm.getName() + " has a " + TenantRegistryClaimsMapper.PROVIDER_ID + " mapper"));
        MapperSettings settings = MapperSettings.from(mapper.getConfig());
        Duration timeout = settings.timeout().compareTo(LEAST_TIMEOUT) < 0 ? LEAST_TIMEOUT : settings.timeout();
        URI base = URI.create(settings.registryUrl().toString().replaceAll("/+$", ""));
        if (settings.clientId() == null) {
            return new Target(base, timeout, null, null, null);
        }
        String secret = settings.clientSecret() != null ? settings.clientSecret() : TenantRegistryClaimsMapper.secretOf(realm, settings.clientId());
        URI tokenEndpoint = settings.tokenEndpoint() != null ? settings.tokenEndpoint() : TenantRegistryClaimsMapper.tokenEndpointOf(session, realm);
        return new Target(base, timeout, settings.clientId(), secret, tokenEndpoint);
    }

    public static Answer post(KeycloakSession session, RealmModel realm, ClientModel client, String path, Map<String, Object> body)
            throws IOException, TimeoutException, InterruptedException {
        return post(target(session, realm, client), path, body);
    }

    /** The call itself: HTTP only, no model read, so it may run after the request's transaction. */
    public static Answer post(Target target, String path, Map<String, Object> body) throws IOException, TimeoutException, InterruptedException {
        Deadline deadline = Deadline.in(target.timeout());
        URI endpoint = URI.create(target.base() + path);
        String token = target.clientId() == null ? null : SERVICE_TOKENS.token(target.tokenEndpoint(), target.clientId(), target.clientSecret(), deadline);
        JsonHttp.Answer answer = send(endpoint, body, token, deadline);
        if (answer.status() == 401 && token != null) {
            SERVICE_TOKENS.forget(target.tokenEndpoint(), target.clientId(), token);
            token = SERVICE_TOKENS.token(target.tokenEndpoint(), target.clientId(), target.clientSecret(), deadline);
            answer = send(endpoint, body, token, deadline);
        }
        return new Answer(answer.status(), answer.body());
    }

    private static Optional<ProtocolMapperModel> claimsMapperOf(ClientModel client) {
        return client.getProtocolMappersStream().filter(m -> TenantRegistryClaimsMapper.PROVIDER_ID.equals(m.getProtocolMapper())).findFirst();
    }

    /** A JSON POST to the registry, with the service token when there is one; RegistryClaims sends its claims request so too. */
    static JsonHttp.Answer send(URI endpoint, Map<String, Object> body, String token, Deadline deadline)
            throws IOException, TimeoutException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "application/json")
                .POST(JsonHttp.jsonBody(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return JsonHttp.send(request, deadline);
    }
}
