import { activateTenantRoute } from './activateTenant.ts';
import { cancelTenantRoute } from './cancelTenant.ts';
import { createTenantRoute } from './createTenant.ts';
import { getTenantRoute } from './getTenant.ts';
import { getTenantBySlugRoute } from './getTenantBySlug.ts';

export const tenantRoutes = [createTenantRoute, getTenantBySlugRoute, getTenantRoute, activateTenantRoute, cancelTenantRoute];
