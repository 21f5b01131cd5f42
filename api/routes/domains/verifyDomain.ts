import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Domain } from '../../../domain/schemas/domains.ts';
import { verifyDomainNow } from '../../../domain/domains/verifyDomain.ts';
import { toDomain } from '../../../domain/domains/domainResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const verifyDomainRoute = defineRoute({
  method: 'post',
  path: '/v1/domains/{id}/verify',
  operationId: 'verifyDomain',
  access: 'members:write',
  summary:
    "Look the domain's TXT record up now (DNS_SERVERS): found, the domain is verified; not found, a pending one stays pending within its window, a verified one fails. A resolver that does not answer is 503 and changes nothing",
  tags: ['domains'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the domain with the state the look-up left it in', schema: Domain },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such domain', schema: ErrorBody },
    503: { description: 'the DNS resolver did not answer; the domain is as it was', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => ({ status: 200, body: toDomain(await verifyDomainNow(deps, params.id, meta, caller.reach)) }),
});
