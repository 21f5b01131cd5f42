import { healthRoute } from './health.ts';
import { readinessRoute } from './readiness.ts';

export const healthRoutes = [healthRoute, readinessRoute];
