import { z } from 'zod';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { notFound } from '../../../domain/errors.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const ActionTokenQuery = z.object({ key: z.string().min(1).max(200) });
const PendingActions = z
  .object({ email: z.string(), required_actions: z.array(z.string()), actions: z.array(z.string()) })
  .meta({ id: 'SimulatedActionToken' });

/** With the simulated provider, its invite links resolve here, as Keycloak's action-token links resolve there. */
export const simulatedActionTokenRoute = defineRoute({
  method: 'get',
  path: '/idp-sim/login-actions/action-token',
  operationId: 'simulatedActionToken',
  access: 'public',
  summary: "Simulated identity provider only: the page an invite link opens (the user's pending required actions)",
  tags: ['identity provider'],
  extension: true,
  query: ActionTokenQuery,
  responses: {
    200: { description: 'the actions the invited user is asked to complete', schema: PendingActions },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such action token (unknown, used or expired), or the simulated provider is not in use', schema: ErrorBody },
  },
  handler: async ({ query }, { deps }) => {
    if (!(deps.identityProvider instanceof SimulatedIdentityProvider)) throw notFound('route');
    const token = await deps.identityProvider.describeActionToken(query.key);
    // An unknown, used or expired token is a link to nothing, as Keycloak's own page treats it.
    if (!token) throw notFound('action token');
    return { status: 200, body: { email: token.email, required_actions: token.requiredActions, actions: token.actions } };
  },
});
