import { Migration } from '@mikro-orm/migrations';

/** A tenant's settings (SPEC-EXTENSIONS §9): those it set, as JSON; the service applies the defaults to the rest. */
export class Migration20261129000024TenantSettings extends Migration {
  override name = 'Migration20261129000024TenantSettings';

  up(): void {
    this.addSql(`alter table tenants add column settings jsonb not null default '{}'`);
  }
}
