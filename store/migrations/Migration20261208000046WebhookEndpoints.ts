import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints (SPEC-EXTENSIONS §16): where the registry sends the events of the given types as signed
 * CloudEvents. `last_delivered_sequence` is where delivery stands (the id of the newest event delivered, or the newest
 * event at creation); a replay request moves it back through `replay_generation` and `replay_after_sequence`, which the
 * delivering activity reads at its next step, so a request is never lost to a restart. Secrets are sealed like audit
 * streams'; during a rotation's overlap the previous one signs too, until `previous_secret_until`.
 */
export class Migration20261208000046WebhookEndpoints extends Migration {
  override name = 'Migration20261208000046WebhookEndpoints';

  up(): void {
    this.addSql(`
      create table webhook_endpoints (
        id uuid primary key,
        url text not null,
        types text[] not null check (cardinality(types) > 0),
        tenant_id uuid references tenants (id),
        state text not null default 'active' check (state in ('active', 'failing', 'disabled')),
        secret_encrypted text not null,
        previous_secret_encrypted text,
        previous_secret_until timestamptz,
        last_delivered_sequence bigint not null,
        replay_generation integer not null default 0,
        replay_after_sequence bigint,
        last_error text,
        created_at timestamptz not null default now(),
        deleted_at timestamptz
      )`);
    this.addSql(`create index webhook_endpoints_live_idx on webhook_endpoints (created_at, id) where deleted_at is null`);
  }
}
