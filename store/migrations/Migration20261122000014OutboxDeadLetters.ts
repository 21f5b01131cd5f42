import { Migration } from '@mikro-orm/migrations';

/**
 * Hand-offs the relay gave up on (OUTBOX_MAX_ATTEMPTS failed deliveries): kept, out of the relay's way, counted in
 * /readyz and the metrics, and recorded in the audit log, for an operator to look at and requeue.
 */
export class Migration20261122000014OutboxDeadLetters extends Migration {
  override name = 'Migration20261122000014OutboxDeadLetters';

  up(): void {
    this.addSql(`alter table tenant_actor_outbox add column dead_lettered_at timestamptz`);
    this.addSql(`drop index tenant_actor_outbox_pending_idx`);
    this.addSql(`create index tenant_actor_outbox_pending_idx on tenant_actor_outbox (next_attempt_at) where delivered_at is null and dead_lettered_at is null`);
    this.addSql(`create index tenant_actor_outbox_dead_idx on tenant_actor_outbox (dead_lettered_at) where dead_lettered_at is not null and delivered_at is null`);
  }
}
