import { Migration } from '@mikro-orm/migrations';

/**
 * The registry's decisions at sign-in (SPEC-EXTENSIONS §15):
 * - `product_clients`: the identity-provider clients that sign a product's users in, a client at most one product's
 *   (its primary key); `catalog_products.sign_in_fail` what the product chose for when the registry cannot be asked.
 *   Both are the catalog's: a change notifies `c:` like the catalog's own table (Migration20261202000032).
 * - `members.break_glass`: a member who may sign in without the tenant's required SSO (audited when it does).
 * - The claims path reads a tenant's active SSO connections' aliases with its snapshot, so a change of a connection
 *   notifies `t:<tenant id>` as a change of its entitlements does (Migration20261122000005).
 * The tenant's `settings.sign_in` lives in `tenants.settings` (Migration20261129000024), which needs nothing here.
 */
export class Migration20261208000042SignInPolicy extends Migration {
  override name = 'Migration20261208000042SignInPolicy';

  up(): void {
    this.addSql(`alter table catalog_products add column sign_in_fail text not null default 'open' check (sign_in_fail in ('open', 'closed'))`);
    this.addSql(`
      create table product_clients (
        client_id text primary key,
        product text not null references catalog_products (key) on delete cascade,
        created_at timestamptz not null default clock_timestamp()
      )`);
    this.addSql(`create index product_clients_product_idx on product_clients (product)`);
    this.addSql(
      `create trigger product_clients_notify_change after insert or update or delete or truncate on product_clients for each statement execute function registry_notify_catalog_change()`,
    );

    this.addSql(`alter table members add column break_glass boolean not null default false`);

    this.addSql(`create trigger sso_connections_notify_tenant after insert or delete on sso_connections for each row execute function registry_notify_tenant_change()`);
    this.addSql(`create trigger sso_connections_notify_tenant_update after update on sso_connections for each row
      when (old.state is distinct from new.state or old.idp_alias is distinct from new.idp_alias or old.tenant_id is distinct from new.tenant_id)
      execute function registry_notify_tenant_change()`);
  }
}
