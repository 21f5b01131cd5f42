import { listCatalogRoute } from './listCatalog.ts';
import { putProductClientsRoute } from './putProductClients.ts';
import { requestProductRoute } from './requestProduct.ts';
import { startTrialRoute } from './startTrial.ts';

export const catalogRoutes = [listCatalogRoute, requestProductRoute, startTrialRoute, putProductClientsRoute];
