import { describe, expect, it } from 'vitest';
import { commandOf, TENANT_ACTOR_COMMAND_KINDS } from '../../../domain/tenantActor/tenantActorCommand.ts';

describe("a tenant actor's command read from its signal", () => {
  it('is the command the registry sent, whole, and the kind is the signal\'s name whatever the argument says', () => {
    expect(commandOf('syncDirectoryUser', { kind: 'syncDirectoryUser', directory_id: 'd', scim_user_id: 's' })).toEqual({ kind: 'syncDirectoryUser', directory_id: 'd', scim_user_id: 's' });
    expect(commandOf('syncMember', { kind: 'provision', user_id: 'u' })).toEqual({ kind: 'syncMember', user_id: 'u' });
    expect(commandOf('pushClaims', undefined)).toEqual({ kind: 'pushClaims' });
  });

  it('keeps only the fields its kind has, and is none when an id is missing or empty', () => {
    expect(commandOf('sendInvitation', { invitation_id: 'i', user_id: 'u', extra: 1 })).toEqual({ kind: 'sendInvitation', invitation_id: 'i' });
    expect(commandOf('syncMember', {})).toBeUndefined();
    expect(commandOf('syncMember', { user_id: '' })).toBeUndefined();
    expect(commandOf('syncSso', { connection_id: 7 })).toBeUndefined();
    expect(commandOf('syncDirectoryUser', { directory_id: 'd' })).toBeUndefined();
  });

  it("reads an operator's command as typed in the Web UI: through Temporal unless the API marked it, a field of the wrong type left out", () => {
    expect(commandOf('resendInvite', { requested_by: 'alice@ops.example' })).toEqual({ kind: 'resendInvite', requested_by: 'alice@ops.example', requested_via: 'temporal' });
    expect(commandOf('retryProvisioning', undefined)).toEqual({ kind: 'retryProvisioning', requested_via: 'temporal' });
    expect(commandOf('retryProvisioning', { requested_by: 42, note: 'n', requested_via: 'api' })).toEqual({ kind: 'retryProvisioning', note: 'n', requested_via: 'api' });
    expect(commandOf('resendInvite', { requested_via: 'somewhere' })).toEqual({ kind: 'resendInvite', requested_via: 'temporal' });
  });

  it('names every kind once, each the name of its signal', () => {
    expect(new Set(TENANT_ACTOR_COMMAND_KINDS).size).toBe(TENANT_ACTOR_COMMAND_KINDS.length);
    expect(TENANT_ACTOR_COMMAND_KINDS).toEqual(expect.arrayContaining(['provision', 'pushClaims', 'syncMember', 'sendInvitation', 'syncDomains', 'syncSso', 'syncDirectoryUser', 'retryProvisioning', 'resendInvite']));
  });
});
