import { activateTenantRoute } from './activateTenant.ts';
import { archiveTenantRoute } from './archiveTenant.ts';
import { cancelTenantRoute } from './cancelTenant.ts';
import { createTenantRoute } from './createTenant.ts';
import { getTenantRoute } from './getTenant.ts';
import { getTenantBySlugRoute } from './getTenantBySlug.ts';
import { listTenantsRoute } from './listTenants.ts';
import { updateTenantRoute } from './updateTenant.ts';

export const tenantRoutes = [
  createTenantRoute,
  listTenantsRoute,
  getTenantBySlugRoute,
  getTenantRoute,
  updateTenantRoute,
  activateTenantRoute,
  cancelTenantRoute,
  archiveTenantRoute,
];
