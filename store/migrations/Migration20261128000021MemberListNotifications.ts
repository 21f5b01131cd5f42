import { Migration } from '@mikro-orm/migrations';

/**
 * Every replica caches each tenant's member list (the members listing, domain/reads/registryCache.ts). A change of a
 * member or of its roles now also notifies `m:<tenant_id>` on `registry_changes`, beside `u:<user_id>`, which does not
 * name the tenant. PostgreSQL sends a payload once per transaction, so a change of many members of one tenant sends one.
 * A replica of the code before this one reads `m:` as a payload it does not know and forgets everything it caches.
 */
export class Migration20261128000021MemberListNotifications extends Migration {
  override name = 'Migration20261128000021MemberListNotifications';

  up(): void {
    this.addSql(`
      create or replace function registry_notify_member_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform pg_notify('registry_changes', 'u:' || old.user_id);
          perform pg_notify('registry_changes', 'm:' || old.tenant_id);
        else
          perform pg_notify('registry_changes', 'u:' || new.user_id);
          perform pg_notify('registry_changes', 'm:' || new.tenant_id);
          if tg_op = 'UPDATE' and new.user_id is distinct from old.user_id then
            perform pg_notify('registry_changes', 'u:' || old.user_id);
          end if;
          if tg_op = 'UPDATE' and new.tenant_id is distinct from old.tenant_id then
            perform pg_notify('registry_changes', 'm:' || old.tenant_id);
          end if;
        end if;
        return null;
      end $$`);
  }
}
