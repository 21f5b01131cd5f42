import { z } from 'zod';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../errorResponse.ts';

const Readiness = z
  .object({
    status: z.string(),
    checks: z.record(z.string(), z.object({ status: z.enum(['up', 'down', 'disabled']), message: z.string().optional() })),
  })
  .meta({ id: 'Readiness' });

export const readinessRoute = defineRoute({
  method: 'get',
  path: '/readyz',
  operationId: 'readiness',
  access: 'public',
  unqueued: true,
  summary: 'Readiness: 200 when the store is reachable; other dependencies are reported but do not decide the status',
  tags: ['health'],
  responses: { 200: { description: 'ready', schema: Readiness }, 503: { description: 'store unreachable', schema: ErrorBody } },
  handler: async (_input, { deps, ctx }) => {
    const checks = await deps.readiness();
    if (checks.store?.status !== 'up') {
      ctx.set('Retry-After', String(STORE_RETRY_AFTER_SECONDS));
      return { status: 503, body: { error: 'unavailable', message: 'store unreachable', checks } };
    }
    return { status: 200, body: { status: 'ready', checks } };
  },
});
