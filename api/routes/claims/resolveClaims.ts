import { Claims, ClaimsRequest } from '../../../domain/schemas/claims.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { resolveClaims } from '../../../domain/claims/resolveClaims.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { AppError } from '../../../domain/errors.ts';

export const resolveClaimsRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/claims',
  operationId: 'resolveClaims',
  access: 'claims:read',
  summary:
    "Resolve a tenant's current claims: first of tenant_id, tenant_slug, user_attrs.tenant_id, user_attrs.tenant_slug; with user_id, the member's roles, permissions and membership status there (a read: it accepts no invitation)",
  tags: ['claims'],
  body: ClaimsRequest,
  responses: {
    200: { description: 'the claim bundle', schema: Claims },
    400: { description: 'invalid input or no lookup key', schema: ErrorBody },
    404: { description: 'no such tenant; with user_id and no tenant named, none the user is a member of', schema: ErrorBody },
  },
  handler: async ({ body }, { deps, caller }) => {
    const { metrics } = deps;
    if (!metrics) return { status: 200, body: await resolveClaims(deps.stores, body, deps.cache, caller.reach) };
    try {
      const claims = await resolveClaims(deps.stores, body, deps.cache, caller.reach);
      metrics.claimsResolutions.inc({ outcome: 'resolved' });
      return { status: 200, body: claims };
    } catch (err) {
      metrics.claimsResolutions.inc({ outcome: err instanceof AppError ? err.code : 'internal' });
      throw err;
    }
  },
});
