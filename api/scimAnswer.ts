/** SCIM's media type (RFC 7644 §8.1): of every answer of the endpoint, its errors included. */
export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const SCIM_CONTENT_TYPE = `${SCIM_MEDIA_TYPE}; charset=utf-8`;

/** The SCIM error body's schema (RFC 7644 §3.12). */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644's error body (§3.12) of a failure answered with `status`. */
export const scimErrorBody = (status: number, detail: string, scimType: string | undefined) => ({
  schemas: [SCIM_ERROR_SCHEMA],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});
