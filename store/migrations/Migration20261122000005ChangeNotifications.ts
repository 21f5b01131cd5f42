import { Migration } from '@mikro-orm/migrations';

/**
 * Every replica caches API keys and tenants for verify and claims (domain/reads/registryCache.ts). These triggers tell
 * them what changed, through NOTIFY on the `registry_changes` channel, whoever made the change (the API, an operator
 * in psql, a migration). Notifications are sent at commit and only when a field the caches hold changed, so the
 * last_used_at bookkeeping of verify stays silent. Payloads: `k:<api key prefix>` or `t:<tenant id>`.
 */
export class Migration20261122000005ChangeNotifications extends Migration {
  override name = 'Migration20261122000005ChangeNotifications';

  up(): void {
    this.addSql(`
      create function registry_notify_api_key_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('registry_changes', 'k:' || old.prefix);
        if tg_op = 'UPDATE' and new.prefix is distinct from old.prefix then
          perform pg_notify('registry_changes', 'k:' || new.prefix);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger api_keys_notify_change after update on api_keys for each row
      when (old.revoked_at is distinct from new.revoked_at or old.tenant_id is distinct from new.tenant_id
         or old.product is distinct from new.product or old.scopes is distinct from new.scopes
         or old.key_hash is distinct from new.key_hash or old.prefix is distinct from new.prefix)
      execute function registry_notify_api_key_change()`);
    this.addSql(`create trigger api_keys_notify_delete after delete on api_keys for each row execute function registry_notify_api_key_change()`);

    this.addSql(`
      create function registry_notify_tenant_change() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'tenants' then
          perform pg_notify('registry_changes', 't:' || old.id);
        elsif tg_op = 'DELETE' then
          perform pg_notify('registry_changes', 't:' || old.tenant_id);
        else
          perform pg_notify('registry_changes', 't:' || new.tenant_id);
          if tg_op = 'UPDATE' and new.tenant_id is distinct from old.tenant_id then
            perform pg_notify('registry_changes', 't:' || old.tenant_id);
          end if;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger tenants_notify_change after update or delete on tenants for each row execute function registry_notify_tenant_change()`);
    this.addSql(`create trigger tenant_products_notify_change after insert or update or delete on tenant_products for each row
      execute function registry_notify_tenant_change()`);
  }
}
