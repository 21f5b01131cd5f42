import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import { commandOf, TENANT_ACTOR_COMMAND_KINDS, type TenantActorCommand } from '../../domain/tenantActor/tenantActorCommand.ts';
import { ActorContext } from './actorContext.ts';
import { handle, type CommandHandlers } from './commandHandlers.ts';
import { inCommandSpan, inFollowUpSpan, inRootSpan, rememberRequest } from './commandSpan.ts';
import { Invitations } from './families/invitations.ts';
import { Organization } from './families/organization.ts';
import { Provisioning } from './families/provisioning.ts';
import { Syncs } from './families/syncs.ts';
import { Timeline } from './families/timeline.ts';
import { actorStateQuery, commandSignal, provisionAndWaitUpdate, sendInvitationAndWaitUpdate, type TenantActorInput, type TenantActorState } from './tenantActorMessages.ts';

/** Keeps each run's history small; a long-lived actor continues as new well before Temporal's own suggestion. */
const MAX_COMMANDS_PER_RUN = 200;
/**
 * A run whose history has reached this many events continues as new once nothing is queued. A worker that no longer
 * holds an actor (it caches WORKER_MAX_CACHED_WORKFLOWS) replays the whole run before the command that woke it, on
 * the one workflow thread every actor of the worker shares: a short run keeps that replay short (docs/performance.md).
 */
const HISTORY_EVENTS_PER_RUN = 100;

/**
 * One tenant's actor: its state, its queue of commands, and the families that say what each command does
 * (families/: provisioning, invitations, syncs, organization, timeline). Handlers only enqueue; `run` takes the
 * commands one at a time, in the order they arrived, so every identity-provider side effect of a tenant happens in
 * sequence, and between commands it sleeps until the tenant's timeline next needs it.
 */
export class TenantActor {
  readonly #input: TenantActorInput;
  readonly #actor: ActorContext;
  readonly #provisioning: Provisioning;
  readonly #invitations: Invitations;
  readonly #timeline: Timeline;
  readonly #handlers: CommandHandlers;

  constructor(input: TenantActorInput) {
    this.#input = input;
    this.#actor = new ActorContext(input);
    const organization = new Organization(this.#actor);
    const syncs = new Syncs(this.#actor);
    this.#timeline = new Timeline(this.#actor, organization, syncs);
    this.#provisioning = new Provisioning(this.#actor, syncs);
    this.#invitations = new Invitations(this.#actor, this.#timeline);
    this.#handlers = { ...this.#provisioning.handlers, ...this.#invitations.handlers, ...syncs.handlers, ...organization.handlers } satisfies CommandHandlers;
  }

  get state(): TenantActorState {
    return this.#actor.state;
  }

  registerHandlers(): void {
    const { queue } = this.#actor;
    const enqueue = (command: TenantActorCommand) => {
      // The handler's span (the request's), the parent of the command's when tracing is on.
      rememberRequest(command);
      queue.push(command);
    };
    // Every command travels as the signal named by its kind; what is no command of that kind is dropped.
    for (const kind of TENANT_ACTOR_COMMAND_KINDS) {
      setHandler(commandSignal(kind), (input) => {
        const command = commandOf(kind, input);
        if (command) enqueue(command);
      });
    }
    setHandler(provisionAndWaitUpdate, async () => {
      enqueue({ kind: 'provision' });
      return this.#provisioning.outcomeOnceProvisioned();
    });
    setHandler(sendInvitationAndWaitUpdate, async (input) => {
      const command = commandOf('sendInvitation', input);
      if (!command) return { status: 'skipped' };
      this.#invitations.awaiting(command);
      enqueue(command);
      return this.#invitations.outcomeOf(command);
    });
    setHandler(actorStateQuery, () => this.#actor.state);
  }

  /** Takes commands until the run has handled enough, then continues as new with its state and pending commands. */
  async run(): Promise<void> {
    const { queue } = this.#actor;
    const timeline = this.#timeline;
    // The command that made the timeline stale: the read that follows is traced under it (commandSpan.ts).
    let staleAfter: TenantActorCommand | undefined;
    for (;;) {
      // A run about to continue as new leaves the timeline to the next run, which starts by reading it.
      const leaving = queue.length === 0 && this.#shouldContinueAsNew();
      // Read once the queue is empty: only the wait below uses it, and each read is a local activity.
      if (timeline.stale && !leaving && queue.length === 0) {
        await inFollowUpSpan(staleAfter, 'readTimeline', () => timeline.read());
        // An archived tenant's actor finishes what is pending and completes; a later command starts a new one.
        if (timeline.archived()) {
          await condition(allHandlersFinished);
          return;
        }
      }
      const wakeAt = timeline.nextWakeAt();
      // With nothing queued the history grows only by what wakes the loop, so a long idle run is `leaving` already.
      const ready = () => queue.length > 0 || leaving || this.#commandsSpent();
      if (wakeAt === undefined) await condition(ready);
      else if (!(await condition(ready, Math.max(1, wakeAt - Date.now())))) {
        staleAfter = undefined;
        await inRootSpan('onTimer', () => timeline.onTimer());
        continue;
      }
      // Only with an empty queue: a waiting provisionAndWait update must see its command handled first.
      if (queue.length === 0) {
        await condition(allHandlersFinished);
        return continueAsNew<(input: TenantActorInput) => Promise<void>>({ ...this.#input, state: this.#actor.state, pending: queue.pending() });
      }
      const command = queue.take()!;
      this.#actor.took();
      timeline.beforeCommand();
      await inCommandSpan(command, () => handle(this.#handlers, command));
      if (timeline.afterCommand()) staleAfter = command;
    }
  }

  #shouldContinueAsNew(): boolean {
    const long = workflowInfo().historyLength >= (this.#input.historyEventsPerRun ?? HISTORY_EVENTS_PER_RUN);
    return this.#commandsSpent() || long;
  }

  /** The run has handled its budget of commands, or Temporal suggests continuing (a history near its limits). */
  #commandsSpent(): boolean {
    return this.#actor.handled >= (this.#input.maxCommandsPerRun ?? MAX_COMMANDS_PER_RUN) || workflowInfo().continueAsNewSuggested;
  }
}
