import { tenantFilterFor } from '../../../domain/access/tenantReach.ts';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { AuditExportQuery } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { exportAuditEvents } from '../../../domain/audit/exportAuditEvents.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const exportAuditEventsRoute = defineRoute({
  method: 'get',
  path: '/v1/audit/export',
  operationId: 'exportAuditEvents',
  access: 'audit:read',
  summary:
    'Every event matching the filters of GET /v1/audit, oldest first, streamed: NDJSON (one AuditEvent per line, default), CSV (RFC 4180, a header row naming every AuditEvent field, metadata as JSON text), or cloudevents (NDJSON, one CloudEvent of GET /v1/events per line: what npm run verify-events checks)',
  tags: ['audit'],
  extension: true,
  query: AuditExportQuery,
  responses: {
    200: { description: 'the events: one AuditEvent JSON per line (ndjson), or CSV with a header row', schema: z.string(), contentTypes: ['application/x-ndjson', 'text/csv'] },
    400: { description: 'invalid input', schema: ErrorBody },
    429: { description: 'AUDIT_EXPORTS_IN_FLIGHT exports and integrity checks already run on this replica; retry after Retry-After seconds', schema: ErrorBody },
    503: { description: 'a read ran past AUDIT_STATEMENT_TIMEOUT_MS (narrow the filters), or the store is unreachable', schema: ErrorBody },
  },
  handler: async ({ query }, { deps, ctx, caller }) => {
    const chunks = await exportAuditEvents(deps.stores.audit, deps.auditReads, caller.reach.bound ? { ...query, tenant_id: tenantFilterFor(caller.reach, query.tenant_id) } : query);
    const csv = query.format === 'csv';
    ctx.type = csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
    ctx.set('Content-Disposition', `attachment; filename="${query.format === 'cloudevents' ? 'events' : 'audit-events'}.${csv ? 'csv' : 'ndjson'}"`);
    // One batch buffered at a time: the next read waits until the client has taken the last one. A client that goes
    // away stops the reads: Koa destroys a stream body when the response ends, which returns the chunks (and their slot).
    return { status: 200, body: Readable.from(chunks, { objectMode: false, highWaterMark: 1 }) };
  },
});
