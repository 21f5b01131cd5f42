package dev.tenantregistry.keycloak.claims;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The mapper's HTTP: one shared client, HTTP/1.1 (no h2c upgrade dance with the registry), and every exchange bounded
 * by the caller's deadline as a whole. The request timeout of java.net.http covers only the wait for the headers, so
 * the whole response is awaited with a timeout of its own.
 */
final class JsonHttp {

    static final ObjectMapper JSON = new ObjectMapper();

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    /** A response whose body, when there is one, is JSON (else null). */
    record Answer(int status, JsonNode body) {
    }

    private JsonHttp() {
    }

    static Answer send(HttpRequest.Builder request, Deadline deadline) throws IOException, TimeoutException, InterruptedException {
        Duration budget = deadline.remaining();
        CompletableFuture<HttpResponse<byte[]>> pending = CLIENT.sendAsync(
                request.timeout(budget).header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> response;
        try {
            response = pending.get(budget.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof java.net.http.HttpTimeoutException timeout) {
                throw new TimeoutException(timeout.getMessage());
            }
            throw cause instanceof IOException io ? io : new IOException(cause);
        }
        JsonNode json = parse(response.body());
        return new Answer(response.statusCode(), json);
    }

    /** Null for an empty or non-JSON body: callers judge the status first and the shape after. */
    private static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException notJson) {
            return null;
        }
    }

    static HttpRequest.BodyPublisher jsonBody(Object value) throws IOException {
        return HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(value));
    }
}
