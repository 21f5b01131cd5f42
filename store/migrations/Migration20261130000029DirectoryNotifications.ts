import { Migration } from '@mikro-orm/migrations';

/**
 * Every replica caches each directory's record (its token hashes, its state) and its users' SCIM reads
 * (domain/reads/registryCache.ts): a change of a directory, of one of its users or of one of its groups notifies
 * `d:<directory_id>` on `registry_changes`, once per transaction and directory. A replica of the code before this one
 * reads `d:` as a payload it does not know and forgets everything it caches.
 */
export class Migration20261130000029DirectoryNotifications extends Migration {
  override name = 'Migration20261130000029DirectoryNotifications';

  up(): void {
    this.addSql(`
      create function registry_notify_directory_change() returns trigger language plpgsql as $$
      begin
        -- Each branch names only its table's columns: a statement is planned when it first runs.
        if tg_table_name = 'directories' then
          perform pg_notify('registry_changes', 'd:' || (case when tg_op = 'DELETE' then old.id else new.id end));
        elsif tg_op = 'DELETE' then
          perform pg_notify('registry_changes', 'd:' || old.directory_id);
        else
          perform pg_notify('registry_changes', 'd:' || new.directory_id);
        end if;
        return null;
      end $$`);
    for (const table of ['directories', 'directory_users', 'directory_groups']) {
      this.addSql(`create trigger ${table}_notify_change after insert or update or delete on ${table} for each row execute function registry_notify_directory_change()`);
    }
  }
}
