import { createSsoConnectionRoute } from './createSsoConnection.ts';
import { deleteSsoConnectionRoute } from './deleteSsoConnection.ts';
import { getSsoConnectionRoute } from './getSsoConnection.ts';
import { listSsoConnectionsRoute } from './listSsoConnections.ts';
import { updateSsoConnectionRoute } from './updateSsoConnection.ts';

export const ssoConnectionRoutes = [createSsoConnectionRoute, listSsoConnectionsRoute, updateSsoConnectionRoute, deleteSsoConnectionRoute, getSsoConnectionRoute];
