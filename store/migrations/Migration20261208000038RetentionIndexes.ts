import { Migration } from '@mikro-orm/migrations';

/**
 * The retention sweep (store/postgresRetainedRows.ts) takes each kind's ended rows oldest first, in batches: each
 * through an index in that order, partial where most rows have not ended, so a batch reads what it removes and
 * not the table. Removing a portal link checks and removes its sessions by link, which had no index.
 */
export class Migration20261208000038RetentionIndexes extends Migration {
  override name = 'Migration20261208000038RetentionIndexes';

  up(): void {
    this.addSql(`create index portal_links_ended_idx on portal_links ((coalesce(used_at, expires_at)))`);
    this.addSql(`create index portal_sessions_link_idx on portal_sessions (link_id)`);
    this.addSql(`create index tenant_actor_outbox_delivered_idx on tenant_actor_outbox (delivered_at) where delivered_at is not null`);
    this.addSql(`create index directories_previous_token_idx on directories (previous_token_expires_at) where previous_token_expires_at is not null`);
  }
}
