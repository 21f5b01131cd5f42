import { tenantFilterFor } from '../../../domain/access/tenantReach.ts';
import { AuditPage, AuditQuery } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { readAuditPage } from '../../../domain/audit/readAuditPage.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listAuditEventsRoute = defineRoute({
  method: 'get',
  path: '/v1/audit',
  operationId: 'listAuditEvents',
  access: 'audit:read',
  summary:
    'List audit events newest first with filters and cursor pagination (default limit 50). A page below a cursor whose events are all written is final: it carries an ETag and Cache-Control, and If-None-Match with that ETag is answered 304',
  tags: ['audit'],
  query: AuditQuery,
  responses: {
    200: { description: 'a page of events', schema: AuditPage },
    304: { description: 'the final page the client holds (If-None-Match named its ETag)' },
    400: { description: 'invalid input', schema: ErrorBody },
  },
  handler: async ({ query }, { deps, caller, ctx }) => {
    const applied = caller.reach.bound ? { ...query, tenant_id: tenantFilterFor(caller.reach, query.tenant_id) } : query;
    const answer = await readAuditPage(deps.stores.audit, deps.deepAuditPages, applied, ctx.get('if-none-match'));
    const headers = answer.etag ? { ETag: answer.etag, 'Cache-Control': answer.cacheControl!, Vary: 'Authorization' } : undefined;
    return answer.notModified ? { status: 304, headers } : { status: 200, jsonText: answer.json, headers };
  },
});
