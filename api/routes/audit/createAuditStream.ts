import { AuditStream, AuditStreamCreate } from '../../../domain/schemas/auditStream.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { createAuditStream } from '../../../domain/auditStreams/createAuditStream.ts';
import { toAuditStream } from '../../../domain/auditStreams/auditStreamResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const createAuditStreamRoute = defineRoute({
  method: 'post',
  path: '/v1/audit/streams',
  operationId: 'createAuditStream',
  access: 'audit:streams',
  acrossTenants: 'stream the audit log',
  summary:
    'Stream every matching event appended from now on to url: one POST per event, in id order, at least once, signed with X-Registry-Signature: sha256=<hex HMAC-SHA256 of the body with the secret>, retried with backoff while the receiver fails',
  tags: ['audit'],
  extension: true,
  body: AuditStreamCreate,
  responses: {
    201: {
      description: 'the stream (never its secret)',
      schema: AuditStream,
      links: { deleteAuditStream: { operationId: 'deleteAuditStream', parameters: { id: '$response.body#/id' } } },
    },
    400: {
      description:
        'invalid input, or a host not allowed: with AUDIT_STREAM_ALLOWED_HOSTS one it does not name; without it a host that is, or resolves to, a loopback, private, link-local, shared, reserved, multicast or cloud metadata address, or does not resolve',
      schema: ErrorBody,
    },
  },
  handler: async ({ body }, { meta, deps }) => {
    const stream = await createAuditStream(deps, body, deps.streamTargets, meta);
    return { status: 201, body: toAuditStream(stream) };
  },
});
