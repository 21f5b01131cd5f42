import { tenantFilterFor } from '../../../domain/access/tenantReach.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { EventFeedQuery, EventPage } from '../../../domain/schemas/events.ts';
import { readEventPage } from '../../../domain/events/readEventPage.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

/** How long the reader may keep a full page; private: a shared cache never holds a tenant's events for a token revoked since. */
const FINAL_PAGE_MAX_AGE_SECONDS = 86_400;

export const listEventsRoute = defineRoute({
  method: 'get',
  path: '/v1/events',
  operationId: 'listEvents',
  access: 'events:read',
  summary:
    'The audit log as CloudEvents 1.0 with the extensions sequence, chainhash and chainprev, oldest first after the cursor `after`, filtered by event types and tenant. A full page is final: the same request answers the same bytes (Cache-Control immutable); the newest page, not full, grows as events are appended. next_cursor is always there: pass it as after to go on, or to resume later.',
  tags: ['events'],
  extension: true,
  query: EventFeedQuery,
  // A tenant named is checked before the handler; a bound token naming none reads its own (tenantFilterFor).
  tenantIn: 'query.tenant_id',
  responses: {
    200: { description: 'a page of events', schema: EventPage },
    400: { description: 'invalid input', schema: ErrorBody },
    503: { description: 'the read ran past AUDIT_STATEMENT_TIMEOUT_MS, or the store is unreachable', schema: ErrorBody },
  },
  handler: async ({ query }, { deps, caller }) => {
    const applied = caller.reach.bound ? { ...query, tenant_id: tenantFilterFor(caller.reach, query.tenant_id) } : query;
    const page = await readEventPage(deps.stores.audit, applied, { statementTimeoutMs: deps.auditReads.statementTimeoutMs });
    const headers = page.final ? { 'Cache-Control': `private, max-age=${FINAL_PAGE_MAX_AGE_SECONDS}, immutable`, Vary: 'Authorization' } : { 'Cache-Control': 'no-cache', Vary: 'Authorization' };
    return { status: 200, jsonText: page.json, headers };
  },
});
