import { AuditIntegrity, AuditIntegrityQuery } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { invalidInput } from '../../../domain/errors.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const checkAuditIntegrityRoute = defineRoute({
  method: 'get',
  path: '/v1/audit/integrity',
  operationId: 'checkAuditIntegrity',
  access: 'audit:read',
  summary:
    "Recompute the hash chain over an id range (default: the whole log) and compare it with the stored hashes; first_bad_id names the first event that does not follow from its predecessor",
  tags: ['audit'],
  extension: true,
  query: AuditIntegrityQuery,
  responses: { 200: { description: 'the verdict', schema: AuditIntegrity }, 400: { description: 'invalid input', schema: ErrorBody } },
  handler: async ({ query }, { deps }) => {
    if (query.from_id !== undefined && query.to_id !== undefined && query.to_id < query.from_id) throw invalidInput('to_id must not be below from_id');
    return { status: 200, body: await deps.stores.audit.integrity(query.from_id, query.to_id) };
  },
});
