import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { notFound } from '../../../domain/errors.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deleteAuditStreamRoute = defineRoute({
  method: 'delete',
  path: '/v1/audit/streams/{id}',
  operationId: 'deleteAuditStream',
  access: 'audit:write',
  summary: 'Delete an audit stream: its delivery stops',
  tags: ['audit'],
  extension: true,
  params: IdParams,
  responses: { 204: { description: 'deleted' }, 400: { description: 'invalid id', schema: ErrorBody }, 404: { description: 'no such stream', schema: ErrorBody } },
  handler: async ({ params }, { meta, deps }) => {
    const deleted = await deps.stores.auditStreams.markDeleted(
      params.id,
      { action: 'audit.stream_deleted', target_id: params.id, target_type: 'audit_stream' },
      meta,
    );
    if (!deleted) throw notFound('audit stream');
    await deps.auditStreamStarter?.stop(params.id).catch((err: unknown) => deps.log.warn({ streamId: params.id, err }, 'could not cancel the audit stream delivery; it stops at its next step'));
    return { status: 204 };
  },
});
