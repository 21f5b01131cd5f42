import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { DirectoryList } from '../../../domain/schemas/directories.ts';
import { listDirectories } from '../../../domain/directories/changeDirectory.ts';
import { toDirectory } from '../../../domain/directories/directoryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from './publicBaseUrl.ts';

export const listDirectoriesRoute = defineRoute({
  method: 'get',
  path: '/v1/tenants/{id}/directories',
  operationId: 'listDirectories',
  access: 'members:read',
  tenantIn: 'params.id',
  summary: "The tenant's SCIM directories, oldest first (never a token)",
  tags: ['directories'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the directories', schema: DirectoryList },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such tenant', schema: ErrorBody },
  },
  handler: async ({ params }, { deps }) => ({ status: 200, body: { items: (await listDirectories(deps, params.id)).map((d) => toDirectory(d, publicBaseUrl(deps))) } }),
});
