import { Migration } from '@mikro-orm/migrations';

/**
 * The chain head moves only when the statement chained a row. The head trigger runs once per INSERT statement, also
 * for one that inserted nothing (an append whose outcome was already recorded, skipped by its own WHERE): the row
 * trigger then never set `audit.chain_id` in the session, and reading it failed the statement, so a provisioning
 * outcome recorded before a worker died could never be recorded "again" and its run never finished (the chaos suite,
 * a worker killed mid-provisioning). Outside the transaction that chained rows the setting is unset or empty; inside
 * it, a later empty statement writes the same head again.
 */
export class Migration20261124000016ChainHeadOfChainedRows extends Migration {
  override name = 'Migration20261124000016ChainHeadOfChainedRows';

  up(): void {
    this.addSql(`
      create or replace function audit_events_chain_head() returns trigger language plpgsql security definer as $$
      declare
        chained_id text := nullif(current_setting('audit.chain_id', true), '');
      begin
        if chained_id is not null then
          update public.audit_chain_head set last_id = chained_id::bigint, last_hash = current_setting('audit.chain_hash');
        end if;
        return null;
      end $$`);
    this.addSql(`revoke execute on function audit_events_chain_head() from public`);
  }
}
