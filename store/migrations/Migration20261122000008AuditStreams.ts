import { Migration } from '@mikro-orm/migrations';

/**
 * Audit log streams (SPEC-EXTENSIONS §4): where to POST every matching event appended after the stream's creation.
 * `start_after_id` is the newest event at creation; `delivered_through_id` is how far delivery has got, written by
 * the delivering activity, so an operator sees the backlog and a restarted delivery resumes from it.
 */
export class Migration20261122000008AuditStreams extends Migration {
  override name = 'Migration20261122000008AuditStreams';

  up(): void {
    this.addSql(`
      create table audit_streams (
        id uuid primary key,
        url text not null,
        secret text not null,
        filter jsonb not null default '{}',
        start_after_id bigint not null,
        delivered_through_id bigint not null,
        last_error text,
        created_at timestamptz not null default now(),
        deleted_at timestamptz
      )`);
  }
}
