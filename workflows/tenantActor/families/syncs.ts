import { log } from '@temporalio/workflow';
import { retryDelayMs } from '../../../domain/retryPolicy.ts';
import type { ActorContext } from '../actorContext.ts';
import { failureKind, failureMessage } from '../activityFailure.ts';
import { SYNC_RETRY } from '../actorRetryPolicies.ts';
import type { CommandHandlers } from '../commandHandlers.ts';
import { NON_RETRYABLE_FAILURE_KINDS } from '../../../domain/provisioning/provisioningVocabulary.ts';
import type { DirectorySyncFailure, MemberSyncFailure } from '../tenantActorMessages.ts';

/**
 * The identity provider made to match what the registry holds, one thing at a time: a member (`syncMember`), the
 * organization's verified domains (`syncDomains`), an SSO connection's identity provider (`syncSso`) and a directory's
 * SCIM user (`syncDirectoryUser`). Each sync makes the provider match the record as it is now, so queued syncs of the
 * same thing collapse into one. A member's or a SCIM user's failed sync is kept in the state and tried again on a
 * durable timer (or by the operator's retry, for kinds that need one); a domain or SSO sync that fails is audited and
 * done again by the next change.
 */
export class Syncs {
  readonly #actor: ActorContext;

  constructor(actor: ActorContext) {
    this.#actor = actor;
  }

  readonly handlers: Pick<CommandHandlers, 'syncMember' | 'syncDomains' | 'syncSso' | 'syncDirectoryUser'> = {
    syncMember: (command) => {
      this.#actor.queue.drop((queued) => queued.kind === 'syncMember' && queued.user_id === command.user_id);
      return this.member(command.user_id);
    },
    syncDomains: () => {
      this.#actor.queue.dropLeading('syncDomains');
      return this.domains();
    },
    syncSso: (command) => this.sso(command.connection_id),
    syncDirectoryUser: (command) => {
      this.#actor.queue.drop((queued) => queued.kind === 'syncDirectoryUser' && queued.scim_user_id === command.scim_user_id);
      return this.directoryUser(command.directory_id, command.scim_user_id);
    },
  };

  /**
   * Makes the provider match one member's record as it is now. A failure is kept in the state by user id (memberSync),
   * its first of a streak appended as idp.member_sync_failed; the actor tries again on a durable timer (SYNC_RETRY)
   * unless the kind needs an operator, whose retryProvisioning runs it again. Success clears it.
   */
  async member(userId: string): Promise<void> {
    const { tenantId, state } = this.#actor;
    try {
      await this.#actor.idp.syncMember(tenantId, userId, Date.now());
      this.#keepMemberSyncFailure(userId, undefined);
    } catch (error) {
      const attempts = (state.memberSync?.[userId]?.attempts ?? 0) + 1;
      const failure = { kind: failureKind(error), message: failureMessage(error), attempts };
      const retried = !NON_RETRYABLE_FAILURE_KINDS.includes(failure.kind);
      this.#keepMemberSyncFailure(userId, retried ? { ...failure, retryAt: new Date(Date.now() + retryDelayMs(SYNC_RETRY, attempts)).toISOString() } : failure);
      if (attempts === 1) {
        const outcomeId = this.#actor.outcomeId(`member-sync:${userId}`);
        await this.#actor.stored('recordMemberSyncFailure', () => this.#actor.localStore.recordMemberSyncFailure(tenantId, userId, failure, outcomeId));
      }
    }
  }

  /**
   * Sets the organization's domains to the tenant's verified ones (the provisioning retry policy for an unavailable
   * provider). A failure is audited once as idp.domain_sync_failed; the next change of a domain sets them again.
   */
  async domains(): Promise<void> {
    const { tenantId } = this.#actor;
    try {
      await this.#actor.idp.syncOrganizationDomains(tenantId);
    } catch (error) {
      const failure = { kind: failureKind(error), message: failureMessage(error) };
      log.warn('organization domains not synced', { tenantId, ...failure });
      const outcomeId = this.#actor.outcomeId('domains');
      await this.#actor.stored('recordProviderSyncFailure', () => this.#actor.localStore.recordProviderSyncFailure(tenantId, 'domain', failure, outcomeId));
    }
  }

  /**
   * Makes a directory's SCIM user match in the provider and the tenant (the provisioning retry policy for an
   * unavailable provider). A failure that outlasts it is kept in the state by SCIM user id (directorySync), its first
   * of a streak audited as idp.directory_sync_failed, and tried again on a durable timer (SYNC_RETRY) unless its kind
   * needs an operator, whose retryProvisioning runs it again: a leaver's deactivation is never dropped. Success clears it.
   */
  async directoryUser(directoryId: string, scimUserId: string): Promise<void> {
    const { tenantId, state } = this.#actor;
    try {
      await this.#actor.idp.syncDirectoryUser(tenantId, directoryId, scimUserId);
      this.#keepDirectorySyncFailure(scimUserId, undefined);
    } catch (error) {
      const attempts = (state.directorySync?.[scimUserId]?.attempts ?? 0) + 1;
      const failure = { kind: failureKind(error), message: failureMessage(error) };
      const retried = !NON_RETRYABLE_FAILURE_KINDS.includes(failure.kind);
      log.warn('directory user not synced', { tenantId, directoryId, scimUserId, attempts, ...failure });
      const retryAt = retried ? { retryAt: new Date(Date.now() + retryDelayMs(SYNC_RETRY, attempts)).toISOString() } : {};
      this.#keepDirectorySyncFailure(scimUserId, { directoryId, ...failure, attempts, ...retryAt });
      if (attempts === 1) {
        const outcomeId = this.#actor.outcomeId(`directory:${scimUserId}`);
        await this.#actor.stored('recordProviderSyncFailure', () =>
          this.#actor.localStore.recordProviderSyncFailure(tenantId, 'directory', failure, outcomeId, scimUserId),
        );
      }
    }
  }

  /**
   * Makes an SSO connection's identity provider match it (the provisioning retry policy for an unavailable provider). A
   * failure is audited once as idp.sso_sync_failed; the next change of the connection syncs it again.
   */
  async sso(connectionId: string): Promise<void> {
    const { tenantId } = this.#actor;
    try {
      await this.#actor.idp.syncSsoProvider(tenantId, connectionId);
    } catch (error) {
      const failure = { kind: failureKind(error), message: failureMessage(error) };
      log.warn('SSO identity provider not synced', { tenantId, connectionId, ...failure });
      const outcomeId = this.#actor.outcomeId(`sso:${connectionId}`);
      await this.#actor.stored('recordProviderSyncFailure', () => this.#actor.localStore.recordProviderSyncFailure(tenantId, 'sso', failure, outcomeId, connectionId));
    }
  }

  /** The operator's retry: every member and SCIM user whose sync failed, those waiting for an operator above all. */
  async retryFailed(): Promise<void> {
    for (const userId of Object.keys(this.#actor.state.memberSync ?? {})) await this.member(userId);
    for (const [scimUserId, failure] of Object.entries(this.#actor.state.directorySync ?? {})) await this.directoryUser(failure.directoryId, scimUserId);
  }

  /** A timer fired: the failed syncs whose time came are tried again. */
  async retryDue(now: number): Promise<void> {
    const due = (failure: MemberSyncFailure) => failure.retryAt !== undefined && Date.parse(failure.retryAt) <= now;
    const dueMembers = Object.entries(this.#actor.state.memberSync ?? {}).filter(([, failure]) => due(failure));
    for (const [userId] of dueMembers) await this.member(userId);
    const dueDirectoryUsers = Object.entries(this.#actor.state.directorySync ?? {}).filter(([, failure]) => due(failure));
    for (const [scimUserId, failure] of dueDirectoryUsers) await this.directoryUser(failure.directoryId, scimUserId);
  }

  /** When the failed syncs are tried again (those waiting for an operator have no time). */
  retryTimes(): number[] {
    const failures = [...Object.values(this.#actor.state.memberSync ?? {}), ...Object.values(this.#actor.state.directorySync ?? {})];
    return failures.flatMap((failure) => (failure.retryAt ? [Date.parse(failure.retryAt)] : []));
  }

  /** Whether a member's or a SCIM user's sync is still failing: the actor of an archived tenant waits for it. */
  failing(): boolean {
    return Boolean(this.#actor.state.memberSync || this.#actor.state.directorySync);
  }

  /** Sets (or, undefined, clears) a member's sync failure in the state; no failure left leaves no memberSync. */
  #keepMemberSyncFailure(userId: string, failure: MemberSyncFailure | undefined): void {
    const others = Object.fromEntries(Object.entries(this.#actor.state.memberSync ?? {}).filter(([id]) => id !== userId));
    const next = failure ? { ...others, [userId]: failure } : others;
    this.#actor.state.memberSync = Object.keys(next).length > 0 ? next : undefined;
  }

  /** Sets (or, undefined, clears) a SCIM user's sync failure in the state; none left leaves no directorySync. */
  #keepDirectorySyncFailure(scimUserId: string, failure: DirectorySyncFailure | undefined): void {
    const others = Object.fromEntries(Object.entries(this.#actor.state.directorySync ?? {}).filter(([id]) => id !== scimUserId));
    const next = failure ? { ...others, [scimUserId]: failure } : others;
    this.#actor.state.directorySync = Object.keys(next).length > 0 ? next : undefined;
  }
}
