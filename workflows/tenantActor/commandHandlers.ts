import type { CommandOf, TenantActorCommand, TenantActorCommandKind } from '../../domain/tenantActor/tenantActorCommand.ts';

/**
 * What each command does: one handler per kind, each in its family (families/). TenantActor composes the families'
 * handlers into one of these, so a kind without a handler does not compile.
 */
export type CommandHandlers = { [K in TenantActorCommandKind]: (command: CommandOf<K>) => Promise<void> };

/** Runs the handler of the command's kind. */
export function handle(handlers: CommandHandlers, command: TenantActorCommand): Promise<void> {
  const handler = handlers[command.kind] as (command: TenantActorCommand) => Promise<void>;
  return handler(command);
}
