import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Domain, DomainCreate } from '../../../domain/schemas/domains.ts';
import { addDomain } from '../../../domain/domains/addDomain.ts';
import { toDomain } from '../../../domain/domains/domainResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const addDomainRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/domains',
  operationId: 'addDomain',
  access: 'members:write',
  tenantIn: 'params.id',
  summary:
    "Claim a domain for the tenant: pending, with the TXT record to publish; the tenant's actor looks it up with backoff for DOMAIN_VERIFICATION_WINDOW_HOURS. A public suffix or a consumer mail domain (gmail.com) is 400; a name the tenant has, or another tenant holds verified, is 409",
  tags: ['domains'],
  extension: true,
  params: IdParams,
  body: DomainCreate,
  bodyRequired: true,
  responses: {
    201: { description: 'the domain, pending, with its verification record', schema: Domain },
    400: { description: 'not a domain name, a public suffix, or a consumer mail domain', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: { description: 'the tenant has the domain already, or another tenant holds it verified; or `limit_reached` (limit `domains`): the tenant holds TENANT_DOMAINS_LIMIT domains', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => ({ status: 201, body: toDomain(await addDomain(deps, params.id, body.domain, meta)) }),
});
