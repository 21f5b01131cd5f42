import { z } from 'zod';
import { defineRoute } from '../../routing/routeDefinition.ts';

const Health = z.object({ status: z.string() }).meta({ id: 'Health' });

export const healthRoute = defineRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'health',
  access: 'public',
  unqueued: true,
  summary: 'Liveness: the process answers',
  tags: ['health'],
  responses: { 200: { description: 'alive', schema: Health } },
  handler: async () => ({ status: 200, body: { status: 'ok' } }),
});
