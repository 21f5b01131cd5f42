import type { TenantActorCommand, TenantActorCommandKind } from '../../domain/tenantActor/tenantActorCommand.ts';

/** The actor's commands not handled yet, in the order they arrived; the handlers enqueue, `run` takes them one at a time. */
export class CommandQueue {
  readonly #commands: TenantActorCommand[];

  constructor(pending: readonly TenantActorCommand[] = []) {
    this.#commands = [...pending];
  }

  get length(): number {
    return this.#commands.length;
  }

  push(command: TenantActorCommand): void {
    this.#commands.push(command);
  }

  take(): TenantActorCommand | undefined {
    return this.#commands.shift();
  }

  has(kind: TenantActorCommandKind): boolean {
    return this.#commands.some((command) => command.kind === kind);
  }

  /** Drops the commands of `kind` at the head of the queue: they collapse into the one being handled. */
  dropLeading(kind: TenantActorCommandKind): void {
    while (this.#commands[0]?.kind === kind) this.#commands.shift();
  }

  /** Drops every queued command that `same` says does what the one being handled does. */
  drop(same: (queued: TenantActorCommand) => boolean): void {
    const others = this.#commands.filter((queued) => !same(queued));
    this.#commands.splice(0, this.#commands.length, ...others);
  }

  /** The commands a run hands on to the next (continue-as-new). */
  pending(): TenantActorCommand[] {
    return [...this.#commands];
  }
}
