import { createPortalLink } from '../../../domain/portal/createPortalLink.ts';
import { PORTAL_INTENT_SCOPE } from '../../../domain/portal/portalIntent.ts';
import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { PortalLink, PortalLinkCreate } from '../../../domain/schemas/portal.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from '../directories/publicBaseUrl.ts';

export const createPortalLinkRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/portal-links',
  operationId: 'createPortalLink',
  access: 'members:write',
  tenantIn: 'params.id',
  // The link opens the intent's page with the caller's authority: the caller must hold the scope of what it opens.
  scopeOfInput: ({ body }) => PORTAL_INTENT_SCOPE[body.intent],
  summary:
    "A single-use link, valid for 5 minutes, to hand to the tenant's IT admin: it opens the admin portal for one intent of that tenant. The intent audit also needs audit:read (403 without it)",
  tags: ['portal'],
  extension: true,
  params: IdParams,
  body: PortalLinkCreate,
  responses: {
    201: { description: 'the link, shown this once', schema: PortalLink },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 201, body: await createPortalLink(deps, params.id, body, meta, publicBaseUrl(deps)) }),
});
