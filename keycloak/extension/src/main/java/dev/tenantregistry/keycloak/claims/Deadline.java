package dev.tenantregistry.keycloak.claims;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** One time budget for everything a token issuance asks of the registry: service token and claims call together. */
final class Deadline {

    private final long atNanos;

    private Deadline(long atNanos) {
        this.atNanos = atNanos;
    }

    static Deadline in(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos());
    }

    /** What is left; throws once nothing is, so no call starts that could not finish in time. */
    Duration remaining() throws TimeoutException {
        long left = atNanos - System.nanoTime();
        if (left <= 0) {
            throw new TimeoutException("time budget spent");
        }
        return Duration.ofNanos(left);
    }
}
