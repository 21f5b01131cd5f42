import { createSsoConnectionRoute } from './createSsoConnection.ts';
import { deleteSsoConnectionRoute } from './deleteSsoConnection.ts';
import { listSsoConnectionsRoute } from './listSsoConnections.ts';
import { updateSsoConnectionRoute } from './updateSsoConnection.ts';

export const ssoConnectionRoutes = [createSsoConnectionRoute, listSsoConnectionsRoute, updateSsoConnectionRoute, deleteSsoConnectionRoute];
