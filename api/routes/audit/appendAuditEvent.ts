import { requireNamedReach } from '../../../domain/access/tenantReach.ts';
import { AuditAppendRequest, AuditEvent } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { appendWithIdempotencyKey } from '../../../domain/audit/appendWithIdempotencyKey.ts';
import { SERVICE_ACTOR_TYPES, SERVICE_OWNED_ACTION_PREFIXES } from '../../../domain/audit/serviceOwnedActions.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const appendAuditEventRoute = defineRoute({
  method: 'post',
  path: '/v1/audit',
  operationId: 'appendAuditEvent',
  access: 'audit:write',
  summary:
    'Append an event to the audit log. With an Idempotency-Key header (1–255 characters) the same key within 24 hours answers the first event again (201, same id, header Idempotent-Replayed: true) and appends nothing; the same key with a different body is 409. ' +
    `Actions the service writes itself (${SERVICE_OWNED_ACTION_PREFIXES.join(', ')}) and the actor types it writes (${SERVICE_ACTOR_TYPES.join(', ')}), in any letter case, are refused (400); recorded_by is always the authenticated caller.`,
  tags: ['audit'],
  body: AuditAppendRequest,
  responses: {
    201: { description: 'the stored event', schema: AuditEvent },
    400: { description: 'invalid input', schema: ErrorBody },
    409: { description: 'the Idempotency-Key was used with a different body', schema: ErrorBody },
  },
  handler: async ({ body }, { meta, deps, ctx, caller }) => {
    requireNamedReach(caller.reach, body.tenant_id);
    const key = ctx.headers['idempotency-key'];
    // The answer the database rendered when it appended the event, sent as it is: what every list shows of it.
    if (key === undefined) return { status: 201, jsonText: (await deps.auditAppends.append(body, meta)).answer };
    const { event, replayed } = await appendWithIdempotencyKey(deps.stores.audit, Array.isArray(key) ? key.join(',') : key, body, meta);
    if (replayed) ctx.set('Idempotent-Replayed', 'true');
    return { status: 201, jsonText: event.answer };
  },
});
