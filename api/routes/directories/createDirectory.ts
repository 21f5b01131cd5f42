import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { DirectoryCreate, DirectoryWithToken } from '../../../domain/schemas/directories.ts';
import { createDirectory } from '../../../domain/directories/createDirectory.ts';
import { toDirectory } from '../../../domain/directories/directoryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from './publicBaseUrl.ts';

export const createDirectoryRoute = defineRoute({
  method: 'post',
  path: '/v1/tenants/{id}/directories',
  operationId: 'createDirectory',
  access: 'members:write',
  tenantIn: 'params.id',
  summary: "Make a SCIM directory for the tenant: 201 with its SCIM base URL and the bearer token its identity provider uses, shown this once (only its hash is kept)",
  tags: ['directories'],
  extension: true,
  params: IdParams,
  body: DirectoryCreate,
  responses: {
    201: { description: 'the directory and its token', schema: DirectoryWithToken },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
    409: { description: '`limit_reached` (limit `directories`): the tenant holds TENANT_DIRECTORIES_LIMIT directories; nothing is made', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps }) => {
    const { directory, token } = await createDirectory(deps, params.id, (body as { group_roles?: Record<string, string[]> } | undefined)?.group_roles, meta);
    return { status: 201, body: { ...toDirectory(directory, publicBaseUrl(deps)), token } };
  },
});
