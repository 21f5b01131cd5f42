import { Migration } from '@mikro-orm/migrations';

/**
 * Invitations (SPEC-EXTENSIONS §8): every state kept, one pending invitation per (tenant, address). `link_nonce` is
 * the secret of the one link that opens an invitation now (null: none does). The actor's `sendInvitation` command
 * carries the invitation's id in the outbox's payload. The simulated provider's links name the invitation and the
 * nonce they were made for, so a link the registry superseded or closed opens nothing; a link made with
 * `send_email: false` is recorded without being delivered.
 */
export class Migration20261129000022Invitations extends Migration {
  override name = 'Migration20261129000022Invitations';

  up(): void {
    this.addSql(`
      create table invitations (
        id uuid primary key,
        tenant_id uuid not null references tenants (id),
        email text not null check (email = lower(email) and char_length(email) between 3 and 254),
        roles text[] not null,
        state text not null check (state in ('pending', 'accepted', 'expired', 'revoked')),
        expires_at timestamptz not null,
        invited_by text not null,
        send_email boolean not null default true,
        send_count integer not null default 0,
        last_sent_at timestamptz,
        recent_sends timestamptz[] not null default '{}',
        accepted_at timestamptz,
        accepted_user_id text,
        revoked_at timestamptz,
        user_id text,
        link_nonce text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    this.addSql(`create unique index invitations_pending_email_idx on invitations (tenant_id, email) where state = 'pending'`);
    this.addSql(`create index invitations_tenant_created_idx on invitations (tenant_id, created_at desc, id desc)`);
    this.addSql(`create index invitations_pending_user_idx on invitations (tenant_id, user_id) where state = 'pending'`);

    this.addSql(`alter table tenant_actor_outbox drop constraint if exists tenant_actor_outbox_command_check`);
    this.addSql(`alter table tenant_actor_outbox add constraint tenant_actor_outbox_command_check
      check (command in ('provision', 'pushClaims', 'syncMember', 'sendInvitation'))`);

    this.addSql(`alter table idp_sim_emails add column invitation_id uuid, add column link_nonce text, add column delivered boolean not null default true`);
  }
}
