import { z } from 'zod';
import { DateTime, JsonObject, Uuid } from './common.ts';

const short = z.string().max(255);

export const AuditAppend = z
  .strictObject({
    action: z.string().min(1).max(100),
    tenant_id: Uuid.optional(),
    project_id: Uuid.optional(),
    actor_id: short.optional(),
    actor_name: short.optional(),
    actor_type: short.optional(),
    target_id: short.optional(),
    target_type: short.optional(),
    target_name: short.optional(),
    product: z.string().max(100).optional(),
    metadata: JsonObject.optional(),
  })
  .meta({ id: 'AuditAppend' });
export type AuditAppend = z.infer<typeof AuditAppend>;

export const AuditEvent = z
  .object({
    ...AuditAppend.shape,
    id: z.int().meta({ format: 'int64' }),
    source_ip: z.string().optional(),
    user_agent: z.string().optional(),
    created_at: DateTime,
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 500;

/** Query strings arrive as text; integers are parsed strictly so "12abc" is rejected, not truncated. */
const queryInt = z.string().regex(/^\d{1,18}$/, 'must be a non-negative integer').transform(Number);

export const AuditQuery = z
  .object({
    tenant_id: Uuid.optional(),
    product: z.string().max(100).optional(),
    actor_id: short.optional(),
    action: z.string().max(100).optional(),
    since: DateTime.optional(),
    until: DateTime.optional(),
    limit: queryInt.pipe(z.int().min(1).max(AUDIT_MAX_LIMIT)).optional(),
    cursor: queryInt.pipe(z.int().min(1).max(Number.MAX_SAFE_INTEGER)).optional(),
  })
  .meta({ id: 'AuditQuery' });
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AuditPage = z
  .object({
    items: z.array(AuditEvent),
    next_cursor: z.int().optional().meta({ format: 'int64', description: 'pass as cursor to read the next (older) page; absent on the last page' }),
  })
  .meta({ id: 'AuditPage' });
