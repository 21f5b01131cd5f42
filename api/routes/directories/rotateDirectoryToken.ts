import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { DirectoryWithToken } from '../../../domain/schemas/directories.ts';
import { rotateDirectoryToken } from '../../../domain/directories/changeDirectory.ts';
import { toDirectory } from '../../../domain/directories/directoryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from './publicBaseUrl.ts';

export const rotateDirectoryTokenRoute = defineRoute({
  method: 'post',
  path: '/v1/directories/{id}/rotate-token',
  operationId: 'rotateDirectoryToken',
  access: 'members:write',
  summary: "A new bearer token for the directory, shown this once; the one before keeps working for 24 hours",
  tags: ['directories'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the directory and its new token', schema: DirectoryWithToken },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such directory', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => {
    const { directory, token } = await rotateDirectoryToken(deps, params.id, meta, caller.reach);
    return { status: 200, body: { ...toDirectory(directory, publicBaseUrl(deps)), token } };
  },
});
