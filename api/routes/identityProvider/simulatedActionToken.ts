import { z } from 'zod';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { AppError, notFound } from '../../../domain/errors.ts';
import { acceptInvitation, invalidLink, invitationLinkOpens } from '../../../domain/invitations/acceptInvitation.ts';
import type { AppContext } from '../../appDependencies.ts';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const ActionTokenQuery = z.object({ key: z.string().min(1).max(200) });
const PendingActions = z
  .object({
    email: z.string(),
    asks: z.enum(['set_password', 'sign_in']).meta({ description: "set_password: an account made for the invitation sets its first password; sign_in: an account that has credentials signs in with them" }),
    required_actions: z.array(z.string()),
    actions: z.array(z.string()),
  })
  .meta({ id: 'SimulatedActionToken' });
const CompletedActions = z
  .strictObject({ password: z.string().min(8).max(200).meta({ description: "the first password of an account made for the invitation (UPDATE_PASSWORD); any other account's own password, as a sign-in" }) })
  .meta({ id: 'SimulatedActionTokenCompletion' });
const ActionsCompleted = z
  .object({ user_id: z.string(), invitation_id: z.string().nullable(), invitation_state: z.string().nullable() })
  .meta({ id: 'SimulatedActionTokenCompleted' });

function simulator(deps: AppContext): SimulatedIdentityProvider {
  if (!(deps.identityProvider instanceof SimulatedIdentityProvider)) throw notFound('route');
  return deps.identityProvider;
}

/** A link of an invitation opens only while the registry holds its secret as the invitation's current one. */
async function requireOpen(deps: AppContext, token: { invitationId: string | null; nonce: string | null }): Promise<void> {
  if (token.invitationId && !(await invitationLinkOpens(deps, token.invitationId, token.nonce ?? ''))) throw invalidLink();
}

/** With the simulated provider, its invite links resolve here, as Keycloak's action-token links resolve there. */
export const simulatedActionTokenRoute = defineRoute({
  method: 'get',
  path: '/idp-sim/login-actions/action-token',
  operationId: 'simulatedActionToken',
  access: 'public',
  summary: "Simulated identity provider only: the page an invite link opens (a first password to set, or a sign-in)",
  tags: ['identity provider'],
  extension: true,
  query: ActionTokenQuery,
  responses: {
    200: { description: 'the actions the invited user is asked to complete', schema: PendingActions },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such action token (unknown, superseded, revoked, used or expired), or the simulated provider is not in use', schema: ErrorBody },
  },
  handler: async ({ query }, { deps }) => {
    const token = await simulator(deps).describeActionToken(query.key);
    // An unknown, used or expired token is a link to nothing, as Keycloak's own page treats it.
    if (!token) throw notFound('action token');
    await requireOpen(deps, token);
    return { status: 200, body: { email: token.email, asks: token.asks, required_actions: token.requiredActions, actions: token.actions } };
  },
});

/**
 * The invited user completes the link: an account made for the invitation sets its first password, any other signs
 * in with its own (SPEC-EXTENSIONS §13); for an invitation's link the simulated provider then reports the acceptance
 * to the registry, as the project's Keycloak extension does.
 */
export const completeSimulatedActionTokenRoute = defineRoute({
  method: 'post',
  path: '/idp-sim/login-actions/action-token',
  operationId: 'completeSimulatedActionToken',
  access: 'public',
  summary: "Simulated identity provider only: complete an invite link with a password (a new account's first one, or a sign-in); an invitation's link accepts the invitation",
  tags: ['identity provider'],
  extension: true,
  query: ActionTokenQuery,
  body: CompletedActions,
  bodyRequired: true,
  responses: {
    200: { description: 'the actions are done; the invitation the link was for is accepted', schema: ActionsCompleted },
    400: { description: 'invalid input', schema: ErrorBody },
    401: { description: "the link's account has credentials and the password is not its own: nothing changed, the link still opens", schema: ErrorBody },
    404: { description: 'no such action token (unknown, superseded, revoked, used or expired), or the simulated provider is not in use', schema: ErrorBody },
  },
  handler: async ({ query, body }, { deps }) => {
    const idp = simulator(deps);
    const token = await idp.describeActionToken(query.key);
    if (!token) throw notFound('action token');
    await requireOpen(deps, token);
    const completed = await idp.completeActionToken(query.key, body.password);
    if (!completed) throw notFound('action token');
    if (completed === 'refused') throw new AppError('unauthorized', 'invalid username or password');
    const accepted = completed.invitationId
      ? await acceptInvitation(deps, { by: 'id', id: completed.invitationId }, completed.userId, { via: 'link', nonce: completed.nonce ?? '' })
      : undefined;
    return { status: 200, body: { user_id: completed.userId, invitation_id: completed.invitationId, invitation_state: accepted?.state ?? null } };
  },
});
