import { ErrorBody, IdParams } from '../../../domain/schemas/common.ts';
import { deleteDirectory } from '../../../domain/directories/changeDirectory.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

export const deleteDirectoryRoute = defineRoute({
  method: 'delete',
  path: '/v1/directories/{id}',
  operationId: 'deleteDirectory',
  access: 'members:write',
  summary: 'Delete a SCIM directory: its tokens stop working at once',
  tags: ['directories'],
  extension: true,
  params: IdParams,
  responses: {
    204: { description: 'deleted' },
    400: { description: 'invalid id', schema: ErrorBody },
    404: { description: 'no such directory', schema: ErrorBody },
  },
  handler: async ({ params }, { meta, deps, caller }) => {
    await deleteDirectory(deps, params.id, meta, caller.reach);
    return { status: 204 };
  },
});
