import { z } from 'zod';

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$/;

export const Uuid = z.uuid({ message: 'must be a UUID' });
export const Slug = z.string().regex(SLUG_PATTERN, 'must match ^[a-z0-9][a-z0-9-]{1,38}[a-z0-9]$');
export const DateTime = z.iso.datetime({ offset: true });
/** Calendar date as YYYY-MM-DD; also checks the date exists (no 2026-02-30). */
export const CalendarDate = z.iso.date();
export const JsonObject = z.record(z.string(), z.unknown());

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'machine-readable code, e.g. invalid_input' }),
    message: z.string().optional(),
  })
  .meta({ id: 'Error' });

export const IdParams = z.object({ id: Uuid });
export const TenantIdQuery = z.object({ tenant_id: Uuid });
