import { Claims, ClaimsRequest } from '../../../domain/schemas/claims.ts';
import { ErrorBody } from '../../../domain/schemas/common.ts';
import { resolveClaims } from '../../../domain/claims/resolveClaims.ts';
import type { SignInEventSink } from '../../../domain/signIn/signInEvents.ts';
import { defineRoute, type RouteScope } from '../../routing/routeDefinition.ts';
import { AppError } from '../../../domain/errors.ts';

/** The sign-in's events go to this process's batched log, with the request's meta made only when there is one. */
const signInEventsOf = (scope: RouteScope): SignInEventSink => (key, windowMs, event) => scope.deps.signInAudit.record(key, windowMs, event, scope.meta);

export const resolveClaimsRoute = defineRoute({
  method: 'post',
  path: '/v1/internal/idp/claims',
  operationId: 'resolveClaims',
  access: 'claims:read',
  summary:
    "Resolve a tenant's current claims: first of tenant_id, tenant_slug, user_attrs.tenant_id, user_attrs.tenant_slug; with user_id, the member's roles, permissions and membership status there (a read: it accepts no invitation); with client_id, the registry's decision on the sign-in (SPEC-EXTENSIONS §15), a refusal audited sign_in.refused",
  tags: ['claims'],
  body: ClaimsRequest,
  responses: {
    200: { description: 'the claim bundle', schema: Claims },
    400: { description: 'invalid input or no lookup key', schema: ErrorBody },
    404: { description: 'no such tenant; with user_id and no tenant named, none the user is a member of', schema: ErrorBody },
  },
  handler: async ({ body }, scope) => {
    const { deps, caller } = scope;
    const { metrics } = deps;
    const signIns = body.client_id === undefined ? undefined : signInEventsOf(scope);
    if (!metrics) return { status: 200, body: await resolveClaims(deps.stores, body, deps.cache, caller.reach, signIns) };
    try {
      const claims = await resolveClaims(deps.stores, body, deps.cache, caller.reach, signIns);
      metrics.claimsResolutions.inc({ outcome: 'resolved' });
      if (claims.decision) metrics.signInDecisions.inc({ decision: claims.decision, reason: claims.reason ?? '' });
      return { status: 200, body: claims };
    } catch (err) {
      metrics.claimsResolutions.inc({ outcome: err instanceof AppError ? err.code : 'internal' });
      throw err;
    }
  },
});
