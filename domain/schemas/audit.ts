import { z } from 'zod';
import { DateTime, JsonObject, Uuid, queryInteger } from './common.ts';
import {
  isServiceActorType,
  isServiceOwnedAction,
  SERVICE_ACTOR_TYPE_PATTERN,
  SERVICE_ACTOR_TYPES,
  SERVICE_OWNED_ACTION_PATTERN,
  SERVICE_OWNED_ACTION_PREFIXES,
} from '../audit/serviceOwnedActions.ts';

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

/** What a caller of POST /v1/audit may append: any action and actor type but the service's own. */
export const AuditAppendRequest = AuditAppend.extend({
  action: AuditAppend.shape.action
    .refine((action) => !isServiceOwnedAction(action), {
      message: `actions starting with ${SERVICE_OWNED_ACTION_PREFIXES.join(', ')} (in any letter case) are written by the service only`,
    })
    .meta({
      description: `Free text, except the service's own actions: a value starting with ${SERVICE_OWNED_ACTION_PREFIXES.join(', ')}, in any letter case, is refused (400).`,
      not: { pattern: SERVICE_OWNED_ACTION_PATTERN },
    }),
  actor_type: short
    .refine((type) => !isServiceActorType(type), { message: `actor_type ${SERVICE_ACTOR_TYPES.join(', ')} (in any letter case) are the service's own and written by the service only` })
    .meta({
      description: `Free text, except ${SERVICE_ACTOR_TYPES.join(', ')} in any letter case, the actor types the service writes for itself, portal sessions and directories (400).`,
      not: { pattern: SERVICE_ACTOR_TYPE_PATTERN },
    })
    .optional(),
}).meta({ id: 'AuditAppendRequest' });

/**
 * An event as stored: what POST /v1/audit bounds, the service's own events may exceed (a target named after a tenant's
 * 200-character name), so the response promises strings and no lengths.
 */
const storedText = z.string().optional();

export const AuditEvent = z
  .object({
    action: z.string(),
    tenant_id: Uuid.optional(),
    project_id: Uuid.optional(),
    actor_id: storedText,
    actor_name: storedText,
    actor_type: storedText,
    target_id: storedText,
    target_type: storedText,
    target_name: storedText,
    product: storedText,
    metadata: JsonObject.optional(),
    id: z.int().meta({ format: 'int64' }),
    source_ip: z.string().optional(),
    user_agent: z.string().optional(),
    recorded_by: z
      .string()
      .optional()
      .meta({ description: "who wrote the event: the authenticated token's client, or tenant-registry for the service's own workflows; absent when authentication is off. No request can set it." }),
    created_at: DateTime,
    hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: "hex SHA-256 over the previous event's hash and this event's canonical content (GET /v1/audit/integrity)" }),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof AuditEvent>;

export const AUDIT_DEFAULT_LIMIT = 50;
export const AUDIT_MAX_LIMIT = 500;


const filterFields = {
  tenant_id: Uuid.optional(),
  product: z.string().max(100).optional(),
  actor_id: short.optional(),
  action: z.string().max(100).optional(),
  since: DateTime.optional(),
  until: DateTime.optional(),
};

/** The filters of the listing, also taken by the export. */
export const AuditFilter = z.object(filterFields);
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AuditQuery = z
  .object({
    ...filterFields,
    limit: queryInteger(1, AUDIT_MAX_LIMIT).optional(),
    cursor: queryInteger(1, Number.MAX_SAFE_INTEGER).optional(),
  })
  .meta({ id: 'AuditQuery' });
export type AuditQuery = z.infer<typeof AuditQuery>;

export const AUDIT_EXPORT_FORMATS = ['ndjson', 'csv', 'cloudevents'] as const;
export const AuditExportQuery = z
  .object({ ...filterFields, format: z.enum(AUDIT_EXPORT_FORMATS).optional().meta({ description: 'ndjson (default), csv, or cloudevents: one CloudEvent of GET /v1/events per line, what npm run verify-events checks' }) })
  .meta({ id: 'AuditExportQuery' });
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

export const AuditIntegrityQuery = z
  .object({
    from_id: queryInteger(1, Number.MAX_SAFE_INTEGER).optional(),
    to_id: queryInteger(1, Number.MAX_SAFE_INTEGER).optional(),
  })
  .meta({ id: 'AuditIntegrityQuery' });

export const AuditIntegrity = z
  .object({
    ok: z.boolean(),
    checked: z.int().meta({ description: 'events recomputed' }),
    first_bad_id: z.int().optional().meta({ format: 'int64', description: 'the first event whose hash does not follow from its predecessor' }),
    last_id: z.int().meta({ format: 'int64' }),
    last_hash: z.string(),
  })
  .meta({ id: 'AuditIntegrity' });
export type AuditIntegrity = z.infer<typeof AuditIntegrity>;

export const AuditPage = z
  .object({
    items: z.array(AuditEvent),
    next_cursor: z.int().optional().meta({ format: 'int64', description: 'pass as cursor to read the next (older) page; absent on the last page' }),
  })
  .meta({ id: 'AuditPage' });
