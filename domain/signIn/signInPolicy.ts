/** What a tenant requires of its people's sign-ins (SPEC-EXTENSIONS §15): `mfa` off or required. */
export const MFA_MODES = ['off', 'required'] as const;
export type MfaMode = (typeof MFA_MODES)[number];

/** The longest `session_max_hours` a tenant may set: a year. */
export const SESSION_MAX_HOURS_LIMIT = 8_760;

/** A tenant's sign-in policy as stored in `tenants.settings.sign_in`; an absent field takes its default. */
export interface StoredSignInPolicy {
  require_sso?: boolean;
  mfa?: MfaMode;
  session_max_hours?: number;
}

/** A tenant's sign-in policy with its defaults: no SSO required, no second factor, no session age limit. */
export interface SignInPolicy {
  require_sso: boolean;
  mfa: MfaMode;
  session_max_hours?: number;
}

export const signInPolicyOf = (stored: StoredSignInPolicy | undefined): SignInPolicy => ({
  require_sso: stored?.require_sso ?? false,
  mfa: stored?.mfa ?? 'off',
  ...(stored?.session_max_hours !== undefined ? { session_max_hours: stored.session_max_hours } : {}),
});
