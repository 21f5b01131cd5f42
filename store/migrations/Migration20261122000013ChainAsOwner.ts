import { Migration } from '@mikro-orm/migrations';

/**
 * The chain triggers run as the schema's owner (SECURITY DEFINER), so the runtime role needs no privilege on the
 * chain head or the id sequence (store/runtimeRolePrivileges.ts). Every relation is schema-qualified: a definer
 * function must not resolve a name through a caller's temporary tables. No SET clause on purpose: it would undo the
 * transaction-local running hash when the function returns.
 */
export class Migration20261122000013ChainAsOwner extends Migration {
  override name = 'Migration20261122000013ChainAsOwner';

  up(): void {
    this.addSql(`
      create or replace function audit_events_chain() returns trigger language plpgsql security definer as $$
      declare
        previous text := nullif(current_setting('audit.chain_hash', true), '');
      begin
        if previous is null then
          select last_hash into previous from public.audit_chain_head for update;
        end if;
        new.id := nextval('public.audit_event_ids');
        new.hash := public.audit_event_hash(previous, new);
        perform set_config('audit.chain_hash', new.hash, true);
        perform set_config('audit.chain_id', new.id::text, true);
        return new;
      end $$`);
    this.addSql(`
      create or replace function audit_events_chain_head() returns trigger language plpgsql security definer as $$
      begin
        update public.audit_chain_head set last_id = current_setting('audit.chain_id')::bigint, last_hash = current_setting('audit.chain_hash');
        return null;
      end $$`);
    this.addSql(`revoke execute on function audit_events_chain() from public`);
    this.addSql(`revoke execute on function audit_events_chain_head() from public`);
  }
}
