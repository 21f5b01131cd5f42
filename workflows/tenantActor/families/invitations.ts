import { condition } from '@temporalio/workflow';
import type { CommandOf } from '../../../domain/tenantActor/tenantActorCommand.ts';
import type { ActorContext } from '../actorContext.ts';
import { failureKind, failureMessage, stoppedDetails } from '../activityFailure.ts';
import type { CommandHandlers } from '../commandHandlers.ts';
import {
  sentInvitationOutcomeId,
  type InvitationSendOutcome,
  type InvitationSendRecorded,
  type InvitationStepsDone,
  type InvitationStepsStopped,
} from '../../../domain/provisioning/provisioningVocabulary.ts';
import type { Timeline } from './timeline.ts';

type SendInvitation = CommandOf<'sendInvitation'>;

/**
 * An invitation's link sent (`sendInvitation`): its user found or made, made a pending member, and the e-mail of its
 * current secret sent once. The API's invitation creation and resend wait for the outcome (sendInvitationAndWait).
 */
export class Invitations {
  readonly #actor: ActorContext;
  readonly #timeline: Timeline;
  /**
   * The outcomes of invitation sends a sendInvitationAndWait update waits for, by the command it enqueued: like a
   * provisioning's invite link, never in `state`, and forgotten once answered.
   */
  readonly #outcomes = new Map<SendInvitation, InvitationSendOutcome>();
  readonly #awaited = new Set<SendInvitation>();

  constructor(actor: ActorContext, timeline: Timeline) {
    this.#actor = actor;
    this.#timeline = timeline;
  }

  readonly handlers: Pick<CommandHandlers, 'sendInvitation'> = {
    sendInvitation: async (command) => {
      const outcome = await this.#send(command.invitation_id);
      if (this.#awaited.delete(command)) this.#outcomes.set(command, outcome);
    },
  };

  /** A sendInvitationAndWait update is about to enqueue `command` and wait for its outcome (outcomeOf). */
  awaiting(command: SendInvitation): void {
    this.#awaited.add(command);
  }

  /** The outcome of an awaited send, once the command is handled. */
  async outcomeOf(command: SendInvitation): Promise<InvitationSendOutcome> {
    await condition(() => this.#outcomes.has(command));
    const outcome = this.#outcomes.get(command)!;
    this.#outcomes.delete(command);
    return outcome;
  }

  /**
   * Sends an invitation's current link: its steps in one local activity per attempt, retried by the actor with the
   * provisioning policy (an `unavailable` provider again after its backoff; any other kind ends it). The outcome is
   * recorded (`idp.invitation_sent` by the steps themselves / `idp.invitation_failed`); a failed invitation stays
   * pending for a resend.
   */
  async #send(invitationId: string): Promise<InvitationSendOutcome> {
    const { tenantId } = this.#actor;
    let outcome: InvitationSendOutcome;
    let done: InvitationStepsDone | undefined;
    let recorded: InvitationSendRecorded | undefined;
    const attempt = async (): Promise<InvitationStepsDone> => {
      recorded = await this.#actor.localProviderSteps.runInvitationStepsRecorded(tenantId, invitationId);
      return recorded.done;
    };
    try {
      done = await this.#actor.retriedByActor(attempt, () => false);
      outcome = done.status === 'sent' ? { status: 'sent', ...(done.inviteUrl ? { inviteUrl: done.inviteUrl } : {}) } : { status: 'skipped' };
    } catch (error) {
      const stopped = stoppedDetails<InvitationStepsStopped>(error);
      outcome = { status: 'failed', kind: failureKind(error), step: stopped?.step ?? 'invite', message: stopped?.message ?? failureMessage(error) };
    }
    if (outcome.status === 'skipped') return outcome;
    const sent = done?.status === 'sent' ? done : undefined;
    if (sent && recorded?.expiresAt !== undefined) this.#timeline.keepInvitationExpiry(invitationId, recorded.expiresAt);
    if (sent && recorded?.recorded) return outcome;
    const event = outcome.status === 'failed' ? { status: 'failed' as const, kind: outcome.kind, step: outcome.step, message: outcome.message } : { status: 'sent' as const };
    const context = sent ? { userId: sent.userId, organizationId: sent.organizationId, sendCount: sent.sendCount } : {};
    // A send is keyed by the secret it mailed; a failure is one per command.
    const outcomeId = sent ? sentInvitationOutcomeId(invitationId, sent.sendCount) : this.#actor.outcomeId(`invitation:${invitationId}`);
    await this.#actor.stored('recordInvitationOutcome', () => this.#actor.localStore.recordInvitationOutcome(tenantId, invitationId, event, outcomeId, context));
    return outcome;
  }
}
