import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { Directory, DirectoryPatch } from '../../../domain/schemas/directories.ts';
import { updateDirectory } from '../../../domain/directories/changeDirectory.ts';
import { toDirectory } from '../../../domain/directories/directoryResponse.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';
import { publicBaseUrl } from './publicBaseUrl.ts';

export const updateDirectoryRoute = defineRoute({
  method: 'patch',
  path: '/v1/directories/{id}',
  operationId: 'updateDirectory',
  access: 'members:write',
  summary: "Change a directory's state (inactive: its SCIM endpoint answers 401) or its group-to-role mapping",
  tags: ['directories'],
  extension: true,
  params: IdParams,
  body: DirectoryPatch,
  bodyRequired: true,
  responses: {
    200: { description: 'the directory', schema: Directory },
    400: { description: 'invalid input', schema: ErrorBody },
    404: { description: 'no such directory', schema: ErrorBody },
  },
  handler: async ({ params, body }, { meta, deps, caller }) => ({ status: 200, body: toDirectory(await updateDirectory(deps, params.id, body, meta, caller.reach), publicBaseUrl(deps)) }),
});
