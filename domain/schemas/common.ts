import { z } from 'zod';

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

export const Uuid = z.uuid({ message: 'must be a UUID' });
export const Slug = z.string().regex(SLUG_PATTERN, 'must match ^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$');
/** PostgreSQL has no year 0000 (1 BC is written differently): such a value would be a database error, not a 400. */
const notYearZero = (value: string) => !value.startsWith('0000');
/**
 * An instant, normalised to UTC when parsed: PostgreSQL refuses offsets beyond ±15:59 that ISO 8601 allows (a 500
 * before), and the normalised instant must still fall in years 0001–9999 (an offset can carry 0001-01-01 into year 0).
 */
export const DateTime = z.iso
  .datetime({ offset: true })
  .transform((value, ctx) => {
    const instant = new Date(value);
    const utc = Number.isNaN(instant.getTime()) ? undefined : instant.toISOString();
    if (!utc || !/^\d{4}-/.test(utc) || !notYearZero(utc)) {
      ctx.addIssue({ code: 'custom', message: 'must be an instant between the years 0001 and 9999 (UTC)' });
      return z.NEVER;
    }
    return utc;
  });
/** Calendar date as YYYY-MM-DD; also checks the date exists (no 2026-02-30). */
export const CalendarDate = z.iso.date().refine(notYearZero, 'year 0000 does not exist');
export const JsonObject = z.record(z.string(), z.unknown());

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'machine-readable code, e.g. invalid_input' }),
    message: z.string().optional(),
    limit: z.string().optional().meta({ description: 'with limit_reached: the per-tenant limit reached, e.g. directories' }),
  })
  .meta({ id: 'Error' });

/** An e-mail address as the HTML standard defines one (a pattern JSON Schema states too), at most 254 characters. */
export const EmailAddress = z.string().max(254).regex(z.regexes.html5Email, 'must be an e-mail address');

export const IdParams = z.object({ id: Uuid });
/**
 * An identity provider's user id: Keycloak's are UUIDs, a federated user's `f:<provider>:<id>`; anything else that
 * could be one, without characters that would need escaping in a path or a log line.
 */
export const IdpUserId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9:._@-]{0,254}$/, 'must be an identity provider user id (letters, digits and : . _ @ -, at most 255)')
  .meta({ description: "the identity provider's user id" });
export const TenantIdQuery = z.object({ tenant_id: Uuid });

/**
 * An integer in a query string, declared as an integer with its bounds: only plain decimal digits are read as one
 * (so "12abc", "1e3" and "0x10" stay text and fail), then the bounds apply.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess((value) => (typeof value === 'string' && /^\d{1,18}$/.test(value) ? Number(value) : value), z.int().min(min).max(max));
