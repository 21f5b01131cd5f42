import { Migration } from '@mikro-orm/migrations';

/**
 * An outbox row holds its command as the actor receives it (domain/tenantActor/tenantActorCommand.ts): `payload` is the
 * whole command, and `command` its kind, computed from it. The kinds are no longer listed in a check constraint: a new
 * command needs no migration. The rows written before keep their fields, which were already spelled as the command's.
 */
export class Migration20261207000037ActorOutboxCommands extends Migration {
  override name = 'Migration20261207000037ActorOutboxCommands';

  up(): void {
    this.addSql(`update tenant_actor_outbox set payload = coalesce(payload, '{}'::jsonb) || jsonb_build_object('kind', command)`);
    this.addSql(`alter table tenant_actor_outbox alter column payload set not null`);
    this.addSql(`alter table tenant_actor_outbox drop column command`);
    this.addSql(`alter table tenant_actor_outbox add column command text not null generated always as (payload->>'kind') stored`);
  }
}
