import { AuditStreamList } from '../../../domain/schemas/auditStream.ts';
import { toAuditStream } from '../../../domain/auditStreams/auditStreamResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listAuditStreamsRoute = defineRoute({
  method: 'get',
  path: '/v1/audit/streams',
  operationId: 'listAuditStreams',
  access: 'audit:read',
  acrossTenants: 'list the audit streams of every tenant',
  summary: 'List the audit streams (never their secrets), with how far delivery has got',
  tags: ['audit'],
  extension: true,
  responses: { 200: { description: 'streams', schema: AuditStreamList } },
  handler: async (_input, { deps }) => ({ status: 200, body: { items: (await deps.stores.auditStreams.listActive()).map(toAuditStream) } }),
});
