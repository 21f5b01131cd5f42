import type { Middleware } from 'koa';

/**
 * The longest request target (path and query as sent, percent-encoded, so its length is its bytes) the service reads:
 * above what a SCIM list's query can be (three texts of 1,000 characters, each up to 12 bytes encoded), below the HTTP
 * server's limit on the whole head (MAX_HEADER_BYTES), so an over-long URI is answered 414 with a body, not 431.
 */
export const MAX_URI_BYTES = 40 * 1024;

/** 414 for a request target over MAX_URI_BYTES, before authentication or any route reads it. */
export function uriLimit(): Middleware {
  return (ctx, next) => (ctx.url.length > MAX_URI_BYTES ? ctx.throw(414, `the request target exceeds ${MAX_URI_BYTES} bytes`) : next());
}
