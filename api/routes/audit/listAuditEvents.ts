import { tenantFilterFor } from '../../../domain/access/tenantReach.ts';
import { AuditPage, AuditQuery } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listAuditEventsRoute = defineRoute({
  method: 'get',
  path: '/v1/audit',
  operationId: 'listAuditEvents',
  access: 'audit:read',
  summary: 'List audit events newest first with filters and cursor pagination (default limit 50)',
  tags: ['audit'],
  query: AuditQuery,
  responses: { 200: { description: 'a page of events', schema: AuditPage }, 400: { description: 'invalid input', schema: ErrorBody } },
  handler: async ({ query }, { deps, caller }) => ({
    status: 200,
    jsonText: await deps.stores.audit.pageJson(caller.reach.bound ? { ...query, tenant_id: tenantFilterFor(caller.reach, query.tenant_id) } : query),
  }),
});
