import { AppError, type ErrorCode } from '../errors.ts';

/**
 * A failure of a SCIM request: a code of the registry's vocabulary, which the API's one map turns into the HTTP
 * status (api/errorResponse.ts), and, where RFC 7644 names one, its scimType. Both ride in the error's details, as
 * they do for any AppError (a rate limit's retryAfterSeconds too).
 */
export class ScimError extends AppError {
  declare readonly details: { scimType?: string; retryAfterSeconds?: number };

  constructor(code: ErrorCode, detail: string, details: { scimType?: string; retryAfterSeconds?: number } = {}) {
    super(code, detail, details);
    this.name = 'ScimError';
  }

  get scimType(): string | undefined {
    return this.details.scimType;
  }
}
