import { describe, expect, it } from 'vitest';
import { inviteLinkAsks } from '../../../domain/invitations/inviteLinkAsks.ts';

describe('inviteLinkAsks', () => {
  it('lets only an account waiting for its first password (no credential, UPDATE_PASSWORD pending) set one', () => {
    expect(inviteLinkAsks({ hasCredentials: false, requiredActions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'] })).toBe('set_password');
    expect(inviteLinkAsks({ hasCredentials: false, requiredActions: ['UPDATE_PASSWORD'] })).toBe('set_password');
  });

  it('asks every account that has credentials to sign in, whatever actions it still has', () => {
    expect(inviteLinkAsks({ hasCredentials: true, requiredActions: [] })).toBe('sign_in');
    expect(inviteLinkAsks({ hasCredentials: true, requiredActions: ['VERIFY_EMAIL', 'UPDATE_PASSWORD'] })).toBe('sign_in');
  });

  it("asks an account made without an invitation's actions (a directory's, an SSO connection's) to sign in", () => {
    expect(inviteLinkAsks({ hasCredentials: false, requiredActions: [] })).toBe('sign_in');
    expect(inviteLinkAsks({ hasCredentials: false, requiredActions: ['VERIFY_EMAIL'] })).toBe('sign_in');
  });
});
