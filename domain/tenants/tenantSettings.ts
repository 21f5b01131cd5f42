import { DEFAULT_INVITATION_EXPIRY_DAYS, DEFAULT_INVITED_ROLE } from '../invitations/invitationRecord.ts';
import { signInPolicyOf, type SignInPolicy, type StoredSignInPolicy } from '../signIn/signInPolicy.ts';

/** The settings a tenant set, as stored (`tenants.settings`); an absent one takes its default. */
export interface StoredTenantSettings {
  default_role?: string;
  invitation_expiry_days?: number;
  sign_in?: StoredSignInPolicy;
  /** null: unset again (kept forever). */
  audit_retention_days?: number | null;
}

/** A tenant's settings with their defaults (SPEC-EXTENSIONS §9, §15): MEMBER, 7 days, no sign-in requirement. */
export interface TenantSettings {
  default_role: string;
  invitation_expiry_days: number;
  sign_in: SignInPolicy;
  audit_retention_days?: number;
}

export const tenantSettingsOf = (stored: StoredTenantSettings): TenantSettings => ({
  default_role: stored.default_role ?? DEFAULT_INVITED_ROLE,
  invitation_expiry_days: stored.invitation_expiry_days ?? DEFAULT_INVITATION_EXPIRY_DAYS,
  sign_in: signInPolicyOf(stored.sign_in),
  ...(typeof stored.audit_retention_days === 'number' ? { audit_retention_days: stored.audit_retention_days } : {}),
});
