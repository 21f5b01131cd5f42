import { DEFAULT_INVITATION_EXPIRY_DAYS, DEFAULT_INVITED_ROLE } from '../invitations/invitationRecord.ts';

/** The settings a tenant set, as stored (`tenants.settings`); an absent one takes its default. */
export interface StoredTenantSettings {
  default_role?: string;
  invitation_expiry_days?: number;
  /** null: unset again (kept forever). */
  audit_retention_days?: number | null;
}

/** A tenant's settings with their defaults (SPEC-EXTENSIONS §9): MEMBER, 7 days. */
export interface TenantSettings {
  default_role: string;
  invitation_expiry_days: number;
  audit_retention_days?: number;
}

export const tenantSettingsOf = (stored: StoredTenantSettings): TenantSettings => ({
  default_role: stored.default_role ?? DEFAULT_INVITED_ROLE,
  invitation_expiry_days: stored.invitation_expiry_days ?? DEFAULT_INVITATION_EXPIRY_DAYS,
  ...(typeof stored.audit_retention_days === 'number' ? { audit_retention_days: stored.audit_retention_days } : {}),
});
