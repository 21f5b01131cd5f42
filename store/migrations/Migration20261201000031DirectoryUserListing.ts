import { Migration } from '@mikro-orm/migrations';

/**
 * SCIM's GET /Users pages a directory's users in (created_at, id) order by startIndex: without an index in that order
 * each page sorted every live user of the directory, a cost that grows with the directory (issue 40). Partial, as
 * the listing reads only live users.
 */
export class Migration20261201000031DirectoryUserListing extends Migration {
  override name = 'Migration20261201000031DirectoryUserListing';

  up(): void {
    this.addSql(`create index directory_users_listing_idx on directory_users (directory_id, created_at, id) where deleted_at is null`);
  }
}
