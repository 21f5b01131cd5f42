import { Migration } from '@mikro-orm/migrations';

/** A SCIM user's answer names the groups it is in: found by the groups' member arrays (`members @> array[id]`). */
export class Migration20261130000028DirectoryGroupMembers extends Migration {
  override name = 'Migration20261130000028DirectoryGroupMembers';

  up(): void {
    this.addSql(`create index directory_groups_members_idx on directory_groups using gin (members)`);
  }
}
