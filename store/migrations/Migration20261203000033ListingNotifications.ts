import { Migration } from '@mikro-orm/migrations';

/**
 * Every replica keeps pages of the tenants' listing and of each tenant's API keys and invitations
 * (domain/reads/keptListing.ts). A tenant's change already notifies `t:<id>`, which forgets the tenants' listing; these
 * tell what else moves a listing, on `registry_changes`, whoever made the change:
 * - `l:` a tenant inserted (once per statement: a new row is in no cache, only the listing changes);
 * - `a:<tenant id>` an API key of the tenant inserted, deleted or changed in what its listing shows; verify's
 *   last_used_at bookkeeping alone stays silent (it is approximate by design, API_KEY_LAST_USED_RESOLUTION_SECONDS),
 *   so a kept page may show it up to CACHE_TTL_SECONDS older;
 * - `i:<tenant id>` an invitation of the tenant inserted, changed or deleted (the tenant's actor writes sends and
 *   expiries from the worker).
 * A replica of the code before this one reads these as payloads it does not know and forgets everything it caches.
 */
export class Migration20261203000033ListingNotifications extends Migration {
  override name = 'Migration20261203000033ListingNotifications';

  up(): void {
    this.addSql(`
      create function registry_notify_tenant_listing() returns trigger language plpgsql as $$
      begin
        perform pg_notify('registry_changes', 'l:');
        return null;
      end $$`);
    this.addSql(`create trigger tenants_notify_insert after insert on tenants for each statement execute function registry_notify_tenant_listing()`);

    // The payload's kind is the trigger's argument; OLD is null on INSERT, NEW on DELETE.
    this.addSql(`
      create function registry_notify_listing_of_tenant() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          perform pg_notify('registry_changes', tg_argv[0] || old.tenant_id);
        end if;
        if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.tenant_id is distinct from old.tenant_id) then
          perform pg_notify('registry_changes', tg_argv[0] || new.tenant_id);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger api_keys_notify_listing after insert or delete on api_keys for each row execute function registry_notify_listing_of_tenant('a:')`);
    this.addSql(`create trigger api_keys_notify_listing_change after update on api_keys for each row
      when ((to_jsonb(old) - 'last_used_at') is distinct from (to_jsonb(new) - 'last_used_at'))
      execute function registry_notify_listing_of_tenant('a:')`);
    this.addSql(`create trigger invitations_notify_listing after insert or update or delete on invitations for each row execute function registry_notify_listing_of_tenant('i:')`);
  }
}
