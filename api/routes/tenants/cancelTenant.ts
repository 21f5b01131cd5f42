import { statusChangeRoute } from './statusChangeRoute.ts';

export const cancelTenantRoute = statusChangeRoute('cancel', 'cancelTenant', 'Freeze a tenant at once; reason and at_period_end are recorded in the audit event');
