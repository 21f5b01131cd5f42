import { Migration } from '@mikro-orm/migrations';

/**
 * Each send of an invitation the API asks for (a creation or a resend, with or without the e-mail), by tenant and
 * time: what a tenant's sends of the last hour are counted by (TENANT_INVITATIONS_SENT_PER_HOUR_LIMIT). A tenant's
 * rows older than the window are deleted as its next send is written.
 */
export class Migration20261204000034InvitationSends extends Migration {
  override name = 'Migration20261204000034InvitationSends';

  up(): void {
    this.addSql(`
      create table invitation_sends (
        tenant_id uuid not null references tenants (id),
        invitation_id uuid not null references invitations (id) on delete cascade,
        sent_at timestamptz not null
      )`);
    this.addSql(`create index invitation_sends_tenant_sent_idx on invitation_sends (tenant_id, sent_at)`);
  }
}
