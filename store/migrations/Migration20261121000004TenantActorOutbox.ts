import { Migration } from '@mikro-orm/migrations';

/**
 * Commands for tenants' actor workflows, written in the same transaction as the change that causes them, so a
 * hand-off that cannot reach Temporal is delivered later instead of being lost.
 */
export class Migration20261121000004TenantActorOutbox extends Migration {
  override name = 'Migration20261121000004TenantActorOutbox';

  up(): void {
    this.addSql(`
      create table tenant_actor_outbox (
        id bigint generated always as identity primary key,
        tenant_id uuid not null references tenants(id),
        command text not null check (command in ('provision', 'pushClaims')),
        created_at timestamptz not null default now(),
        next_attempt_at timestamptz not null,
        attempts integer not null default 0,
        last_error text,
        delivered_at timestamptz
      )`);
    this.addSql(`create index tenant_actor_outbox_pending_idx on tenant_actor_outbox (next_attempt_at) where delivered_at is null`);
  }
}
