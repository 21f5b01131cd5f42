import type { TenantLimits } from '../domain/tenants/tenantLimits.ts';
import type { Settings } from '../platform/config.ts';

/** The per-tenant limits the domain services apply, from their settings. */
export const tenantLimitsOf = (settings: Settings): TenantLimits => ({
  directories: settings.TENANT_DIRECTORIES_LIMIT,
  sso_connections: settings.TENANT_SSO_CONNECTIONS_LIMIT,
  domains: settings.TENANT_DOMAINS_LIMIT,
  pending_invitations: settings.TENANT_PENDING_INVITATIONS_LIMIT,
  invitations_sent_per_hour: settings.TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT,
});
