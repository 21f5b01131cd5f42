import { Migration } from '@mikro-orm/migrations';

/**
 * Every replica caches the catalog's listing (domain/catalog/catalogDocument.ts): any statement that changes the
 * catalog's table (a migration's, an operator's) notifies `c:` on `registry_changes`, once per statement. A replica of
 * the code before this one reads `c:` as a payload it does not know and forgets everything it caches.
 */
export class Migration20261202000032CatalogNotifications extends Migration {
  override name = 'Migration20261202000032CatalogNotifications';

  up(): void {
    this.addSql(`
      create function registry_notify_catalog_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('registry_changes', 'c:');
        return null;
      end $$`);
    this.addSql(
      `create trigger catalog_products_notify_change after insert or update or delete or truncate on catalog_products for each statement execute function registry_notify_catalog_change()`,
    );
  }
}
