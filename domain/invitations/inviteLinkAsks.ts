/**
 * What an invite link asks of the account it is for (SPEC-EXTENSIONS §13), judged when the link is used: an account
 * made for an invitation that has not set a password yet (no credential, its UPDATE_PASSWORD still pending) sets its
 * first one; any other account (one with credentials, a directory's or an SSO connection's) signs in, so no tenant's
 * link ever sets or resets the credentials of an account someone already holds.
 */
export type InviteLinkAsks = 'set_password' | 'sign_in';

export function inviteLinkAsks(account: { hasCredentials: boolean; requiredActions: readonly string[] }): InviteLinkAsks {
  return !account.hasCredentials && account.requiredActions.includes('UPDATE_PASSWORD') ? 'set_password' : 'sign_in';
}
