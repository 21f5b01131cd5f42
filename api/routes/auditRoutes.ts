import { AuditAppend, AuditEvent, AuditPage, AuditQuery } from '../../domain/schemas/audit.ts';
import { ErrorBody } from '../../domain/schemas/common.ts';
import { listAuditEventsJson } from '../../domain/audit/listAuditEvents.ts';
import { defineRoute } from '../routeDefinition.ts';

const tags = ['audit'];

export const auditRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/audit',
    operationId: 'appendAuditEvent',
    summary: 'Append an event to the audit log',
    tags,
    body: AuditAppend,
    responses: { 201: { description: 'the stored event', schema: AuditEvent }, 400: { description: 'invalid input', schema: ErrorBody } },
    // createApp always provides the batcher.
    handler: async ({ body }, { meta, deps }) => ({ status: 201, body: await deps.auditAppends!.append(body, meta) }),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/audit',
    operationId: 'listAuditEvents',
    summary: 'List audit events newest first with filters and cursor pagination (default limit 50)',
    tags,
    query: AuditQuery,
    responses: { 200: { description: 'a page of events', schema: AuditPage }, 400: { description: 'invalid input', schema: ErrorBody } },
    handler: async ({ query }, { sql }) => ({ status: 200, jsonText: await listAuditEventsJson(await sql(), query) }),
  }),
];
