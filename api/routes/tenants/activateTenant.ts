import { statusChangeRoute } from './statusChangeRoute.ts';

export const activateTenantRoute = statusChangeRoute('activate', 'activateTenant', 'Move a tenant to active from any state, applying plan and contract fields');
