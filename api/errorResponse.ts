import { AppError, type ErrorCode } from '../domain/errors.ts';
import { isStoreUnreachable } from '../store/storeUnreachable.ts';

const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit_reached: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  not_implemented: 501,
  internal: 500,
};

/** HTTP errors raised by Koa or its router (e.g. 405 from allowedMethods) keep their status with a matching code. */
const CODE_OF_STATUS: Record<number, string> = {
  400: 'invalid_input',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  501: 'not_implemented',
};

/** The Error body for a status set without one (e.g. the router's 405 and 501 when it does not throw). */
export function errorBodyOfStatus(status: number, message: string): { error: string; message: string } {
  return { error: CODE_OF_STATUS[status] ?? (status >= 500 ? 'internal' : 'invalid_input'), message };
}

export interface ErrorResponse {
  status: number;
  body: { error: string; message?: string; limit?: string };
  expose: boolean;
  /** RFC 7644's scimType, for an answer of the SCIM endpoint. */
  scimType?: string;
  /** Seconds for Retry-After: a failure that passes by itself (the store away, a full queue, a rate limit). */
  retryAfterSeconds?: number;
}

/** How soon to try again after the store was unreachable: about how long a PostgreSQL failover or restart takes. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/** How soon to try again when the heavy audit reads' slots were all taken (domain/audit/auditReadLimits.ts). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** The one place where failures become the spec's Error body; anything unexpected is a 500 that leaks nothing. */
export function errorResponse(error: unknown): ErrorResponse {
  if (error instanceof AppError) {
    const response: ErrorResponse = { status: STATUS_OF[error.code], body: { error: error.code, message: error.message }, expose: true };
    // RFC 7644's scimType where the failure names one (a ScimError, a body the JSON reader refused); invalid input
    // is invalidValue unless it says otherwise.
    const named = (error.details as { scimType?: unknown } | undefined)?.scimType;
    if (typeof named === 'string') response.scimType = named;
    else if (error.code === 'invalid_input') response.scimType = 'invalidValue';
    if (error.code === 'limit_reached') {
      const limit = (error.details as { limit?: unknown } | undefined)?.limit;
      if (typeof limit === 'string') response.body.limit = limit;
    }
    // A failure that knows when it passes says so (an invitation's sends, a full admission queue); the others ask for
    // about a store's failover, or a few seconds of a rate limit.
    const known = (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (error.code === 'unavailable') response.retryAfterSeconds = typeof known === 'number' ? known : STORE_RETRY_AFTER_SECONDS;
    if (error.code === 'rate_limited') response.retryAfterSeconds = typeof known === 'number' ? known : BUSY_RETRY_AFTER_SECONDS;
    return response;
  }
  if (isStoreUnreachable(error)) {
    return {
      status: 503,
      body: { error: 'unavailable', message: 'the registry store is unreachable; try again' },
      expose: false,
      retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
    };
  }
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number' && CODE_OF_STATUS[status] && (error as { expose?: boolean }).expose) {
    return { status, body: { error: CODE_OF_STATUS[status]!, message: (error as Error).message }, expose: true };
  }
  return { status: 500, body: { error: 'internal', message: 'internal error' }, expose: false };
}
