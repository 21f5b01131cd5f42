import { AuditIntegrity, AuditIntegrityQuery } from '../../../domain/schemas/audit.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { checkAuditIntegrity } from '../../../domain/audit/checkAuditIntegrity.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const checkAuditIntegrityRoute = defineRoute({
  method: 'get',
  path: '/v1/audit/integrity',
  operationId: 'checkAuditIntegrity',
  access: 'audit:read',
  acrossTenants: "check the whole log's chain",
  summary:
    "Recompute the hash chain over an id range (default: the whole log) and compare it with the stored hashes; first_bad_id names the first event that does not follow from its predecessor. An empty range (to_id below from_id, or beyond the log) checks nothing and is ok.",
  tags: ['audit'],
  extension: true,
  query: AuditIntegrityQuery,
  responses: {
    200: { description: 'the verdict', schema: AuditIntegrity },
    400: { description: 'invalid input', schema: ErrorBody },
    429: { description: 'AUDIT_EXPORTS_IN_FLIGHT exports and integrity checks already run on this replica; retry after Retry-After seconds', schema: ErrorBody },
    503: { description: 'the check ran past AUDIT_STATEMENT_TIMEOUT_MS (check a narrower id range), or the store is unreachable', schema: ErrorBody },
  },
  handler: async ({ query }, { deps }) => {
    return { status: 200, body: await checkAuditIntegrity(deps.stores.audit, deps.auditReads, query) };
  },
});
