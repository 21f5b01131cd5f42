import { AuditIntegrity, AuditIntegrityQuery } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const checkAuditIntegrityRoute = defineRoute({
  method: 'get',
  path: '/v1/audit/integrity',
  operationId: 'checkAuditIntegrity',
  access: 'audit:read',
  summary:
    "Recompute the hash chain over an id range (default: the whole log) and compare it with the stored hashes; first_bad_id names the first event that does not follow from its predecessor. An empty range (to_id below from_id, or beyond the log) checks nothing and is ok.",
  tags: ['audit'],
  extension: true,
  query: AuditIntegrityQuery,
  responses: { 200: { description: 'the verdict', schema: AuditIntegrity }, 400: { description: 'invalid input', schema: ErrorBody } },
  handler: async ({ query }, { deps }) => {
    return { status: 200, body: await deps.stores.audit.integrity(query.from_id, query.to_id) };
  },
});
