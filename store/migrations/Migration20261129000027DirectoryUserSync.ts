import { Migration } from '@mikro-orm/migrations';

/**
 * A directory's users keep what their sync needs: when the SCIM client deleted one (kept until the member is gone),
 * and whether the identity provider's user was made for it (only such a user is disabled by `active: false`). The
 * actor's `syncDirectoryUser` command carries the directory and the SCIM user.
 */
export class Migration20261129000027DirectoryUserSync extends Migration {
  override name = 'Migration20261129000027DirectoryUserSync';

  up(): void {
    this.addSql(`alter table directory_users add column deleted_at timestamptz, add column owned boolean not null default false`);
    this.addSql(`drop index if exists directory_users_name_idx`);
    this.addSql(`create unique index directory_users_name_idx on directory_users (directory_id, lower(user_name)) where deleted_at is null`);
    this.addSql(`alter table tenant_actor_outbox drop constraint if exists tenant_actor_outbox_command_check`);
    this.addSql(`alter table tenant_actor_outbox add constraint tenant_actor_outbox_command_check
      check (command in ('provision', 'pushClaims', 'syncMember', 'sendInvitation', 'syncDomains', 'syncSso', 'syncDirectoryUser'))`);
  }
}
