import { Migration } from '@mikro-orm/migrations';

/** The invite e-mails provisioning runs sent (domain/provisioning/inviteLedger.ts): one per run, whatever re-runs. */
export class Migration20261122000015ProvisioningInvites extends Migration {
  override name = 'Migration20261122000015ProvisioningInvites';

  up(): void {
    this.addSql(`
      create table provisioning_invites (
        run_key text primary key,
        tenant_id uuid not null references tenants (id) on delete cascade,
        user_id text not null,
        sent_at timestamptz not null default now()
      )`);
    this.addSql(`create index provisioning_invites_tenant_idx on provisioning_invites (tenant_id)`);
  }
}
