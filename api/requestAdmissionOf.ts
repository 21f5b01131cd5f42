import type { Settings } from '../platform/config.ts';
import { RequestAdmission, WAITING_PER_SLOT } from '../platform/requestAdmission.ts';
import type { AnyRoute } from './routing/routeDefinition.ts';
import { allRoutes } from './routes/index.ts';

/**
 * The API's admission of requests as its settings say: HTTP_MAX_REQUESTS_IN_FLIGHT at once, HTTP_MAX_QUEUED waiting
 * (default WAITING_PER_SLOT for each of those), the operations marked `unqueued` (the probes) let through as they come.
 */
export function requestAdmissionOf(settings: Settings, routes: AnyRoute[] = allRoutes): RequestAdmission {
  const unqueued = new Set(routes.filter((route) => route.unqueued).map((route) => route.path));
  return new RequestAdmission({
    limit: settings.HTTP_MAX_REQUESTS_IN_FLIGHT,
    releaseAfterMs: settings.HTTP_SLOT_RELEASE_MS,
    maxWaiting: settings.HTTP_MAX_QUEUED ?? WAITING_PER_SLOT * settings.HTTP_MAX_REQUESTS_IN_FLIGHT,
    bypasses: (req) => req.method === 'GET' && unqueued.has(req.url!),
  });
}
