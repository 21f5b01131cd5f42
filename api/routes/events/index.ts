import { getAsyncApiDocumentRoute } from './getAsyncApiDocument.ts';
import { listEventsRoute } from './listEvents.ts';

export const eventRoutes = [listEventsRoute, getAsyncApiDocumentRoute];
