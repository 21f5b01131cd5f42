import { AppError } from '../../../domain/errors.ts';
import { membershipsOfUser } from '../../../domain/memberships/membershipsOfUser.ts';
import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { MembershipList } from '../../../domain/schemas/membership.ts';
import { IdpError } from '../../../identityProvider/identityProvider.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const listMembershipsRoute = defineRoute({
  method: 'get',
  path: '/v1/users/{id}/memberships',
  operationId: 'listMemberships',
  access: 'claims:read',
  summary: "A user's tenant memberships: links and org_roles from the identity provider, status/plan/products from the registry",
  tags: ['identity provider'],
  params: IdParams,
  responses: {
    200: { description: 'memberships (empty for an unknown user)', schema: MembershipList },
    400: { description: 'invalid id', schema: ErrorBody },
    503: { description: 'identity provider unreachable', schema: ErrorBody },
  },
  handler: async ({ params }, { deps, caller }) => {
    if (!deps.identityProvider) throw new AppError('unavailable', 'identity provider not configured');
    let fromProvider;
    try {
      fromProvider = await deps.identityProvider.memberships(params.id);
    } catch (cause) {
      if (cause instanceof IdpError) throw new AppError('unavailable', `identity provider: ${cause.kind}`);
      throw cause;
    }
    return { status: 200, body: { items: await membershipsOfUser(deps.stores.tenants, fromProvider, caller.reach) } };
  },
});
