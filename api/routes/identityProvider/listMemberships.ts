import { z } from 'zod';
import { membershipsOfUser, type ProviderMembership } from '../../../domain/memberships/membershipsOfUser.ts';
import { ErrorBody, IdpUserId } from '../../../domain/schemas/common.ts';
import { MembershipList } from '../../../domain/schemas/membership.ts';
import { IdpError } from '../../../identityProvider/identityProvider.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listMembershipsRoute = defineRoute({
  method: 'get',
  path: '/v1/users/{id}/memberships',
  operationId: 'listMemberships',
  access: 'claims:read',
  summary: "A user's tenant memberships: the registry's member records, then the identity provider's organizations the registry does not know",
  tags: ['identity provider'],
  params: z.object({ id: IdpUserId }),
  responses: {
    200: { description: "memberships (empty for an unknown user); partial: the identity provider could not be asked", schema: MembershipList },
    400: { description: 'invalid id', schema: ErrorBody },
  },
  handler: async ({ params }, { deps, caller }) => {
    // The registry is the authority on members: without the provider its records still answer, marked partial.
    let fromProvider: ProviderMembership[] | undefined;
    try {
      fromProvider = await deps.identityProvider?.memberships(params.id);
    } catch (cause) {
      if (!(cause instanceof IdpError)) throw cause;
      deps.log.warn({ err: cause, userId: params.id }, 'identity provider unreachable; memberships answered from the registry alone');
    }
    return { status: 200, body: await membershipsOfUser(deps.stores, params.id, fromProvider, caller.reach, deps.cache) };
  },
});
