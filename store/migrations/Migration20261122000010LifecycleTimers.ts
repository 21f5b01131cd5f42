import { Migration } from '@mikro-orm/migrations';

/**
 * The tenant's timeline, run by its actor (issue #12): markers that make each lifecycle event happen once per date
 * (the trial reminder per trial_ends_at, the expiry announcement per expires_at). Tenants that already have something
 * scheduled get a hand-off, so their actor starts (or wakes) and sets its timers.
 */
export class Migration20261122000010LifecycleTimers extends Migration {
  override name = 'Migration20261122000010LifecycleTimers';

  up(): void {
    this.addSql(`alter table tenants add column trial_reminded_for timestamptz`);
    this.addSql(`alter table tenant_products add column expiry_announced_for timestamptz`);
    this.addSql(`
      insert into tenant_actor_outbox (tenant_id, command, next_attempt_at)
      select t.id, 'pushClaims', now() from tenants t
       where t.status = 'trial' or exists (select 1 from tenant_products p where p.tenant_id = t.id and p.expires_at is not null)`);
  }
}
