/** SCIM's media type (RFC 7644 §8.1): of every answer of the endpoint, its errors included. */
export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const SCIM_CONTENT_TYPE = `${SCIM_MEDIA_TYPE}; charset=utf-8`;

/** The SCIM error body's schema (RFC 7644 §3.12). */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A failure of a SCIM request, answered as RFC 7644's error body with its HTTP status and, where it has one, scimType. */
export class ScimError extends Error {
  readonly status: number;
  readonly scimType?: string;
  readonly retryAfterSeconds?: number;

  constructor(status: number, detail: string, options: { scimType?: string; retryAfterSeconds?: number } = {}) {
    super(detail);
    this.name = 'ScimError';
    this.status = status;
    this.scimType = options.scimType;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const scimErrorBody = (error: ScimError) => ({
  schemas: [SCIM_ERROR_SCHEMA],
  status: String(error.status),
  ...(error.scimType ? { scimType: error.scimType } : {}),
  detail: error.message,
});
