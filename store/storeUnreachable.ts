/**
 * True when an error means PostgreSQL could not be reached or went away (refused, reset, timed out, shutting down,
 * the pool unable to hand out a connection), as opposed to a statement it refused. Such a failure is the caller's to
 * retry: the API answers 503 `unavailable` with Retry-After (api/errorResponse.ts), never 500.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
// SQLSTATE class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections).
const SQLSTATES = /^(08\d{3}|57P0[123]|53300)$/;
const MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Timeout acquiring a connection|Client has encountered a connection error|Connection is closed|the database system is (starting up|shutting down|in recovery mode)/i;

export function isStoreUnreachable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isStoreUnreachable(inner))) return true;
  }
  return false;
}
