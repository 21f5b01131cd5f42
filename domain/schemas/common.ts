import { z } from 'zod';

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

export const Uuid = z.uuid({ message: 'must be a UUID' });
export const Slug = z.string().regex(SLUG_PATTERN, 'must match ^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$');
/** PostgreSQL has no year 0000 (1 BC is written differently): such a value would be a database error, not a 400. */
const notYearZero = (value: string) => !value.startsWith('0000');
export const DateTime = z.iso.datetime({ offset: true }).refine(notYearZero, 'year 0000 does not exist');
/** Calendar date as YYYY-MM-DD; also checks the date exists (no 2026-02-30). */
export const CalendarDate = z.iso.date().refine(notYearZero, 'year 0000 does not exist');
export const JsonObject = z.record(z.string(), z.unknown());

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'machine-readable code, e.g. invalid_input' }),
    message: z.string().optional(),
  })
  .meta({ id: 'Error' });

export const IdParams = z.object({ id: Uuid });
export const TenantIdQuery = z.object({ tenant_id: Uuid });

/**
 * An integer in a query string, declared as an integer with its bounds: only plain decimal digits are read as one
 * (so "12abc", "1e3" and "0x10" stay text and fail), then the bounds apply.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess((value) => (typeof value === 'string' && /^\d{1,18}$/.test(value) ? Number(value) : value), z.int().min(min).max(max));
