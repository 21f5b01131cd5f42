import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { deleteAuditStream } from '../../../domain/auditStreams/deleteAuditStream.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deleteAuditStreamRoute = defineRoute({
  method: 'delete',
  path: '/v1/audit/streams/{id}',
  operationId: 'deleteAuditStream',
  access: 'audit:streams',
  acrossTenants: 'delete an audit stream',
  summary: 'Delete an audit stream: its delivery stops',
  tags: ['audit'],
  extension: true,
  params: IdParams,
  responses: { 204: { description: 'deleted' }, 400: { description: 'invalid id', schema: ErrorBody }, 404: { description: 'no such stream', schema: ErrorBody } },
  handler: async ({ params }, { meta, deps }) => {
    await deleteAuditStream(deps, params.id, meta);
    return { status: 204 };
  },
});
