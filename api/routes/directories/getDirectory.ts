import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Directory } from '../../../domain/schemas/directories.ts';
import { getDirectory } from '../../../domain/directories/changeDirectory.ts';
import { toDirectory } from '../../../domain/directories/directoryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from './publicBaseUrl.ts';

export const getDirectoryRoute = defineRoute({
  method: 'get',
  path: '/v1/directories/{id}',
  operationId: 'getDirectory',
  access: 'members:read',
  summary: 'One SCIM directory, with how many users and groups it holds (never a token)',
  tags: ['directories'],
  extension: true,
  params: IdParams,
  responses: {
    200: { description: 'the directory', schema: Directory },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such directory', schema: ErrorBody },
  },
  handler: async ({ params }, { deps, caller }) => ({ status: 200, body: toDirectory(await getDirectory(deps, params.id, caller.reach), publicBaseUrl(deps)) }),
});
