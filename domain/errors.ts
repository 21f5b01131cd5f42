/** Error codes of the Error body; the API maps each to one HTTP status in api/errorResponse.ts. */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  /** A per-tenant limit (domain/tenants/tenantLimits.ts); `details.limit` names it. */
  | 'limit_reached'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  /** A request the API understands but does not offer (a SCIM search over several resource types). */
  | 'not_implemented'
  | 'internal';

/** A failure the caller can act on: carries a code from the Error body's vocabulary and a safe message. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const invalidInput = (message: string, details?: unknown) => new AppError('invalid_input', message, details);
export const conflict = (message: string) => new AppError('conflict', message);
