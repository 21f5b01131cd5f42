import { Migration } from '@mikro-orm/migrations';

/**
 * The members of tenants and their roles (SPEC-EXTENSIONS §7). A member is an identity-provider user (its id as the
 * provider gives it) in one tenant; its roles are roles of that tenant or shared ones. Member changes hand the
 * provider's side (organization membership, the user's attributes) to the tenant's actor through the outbox, whose
 * commands now carry a payload (the member's user id).
 *
 * Tenants provisioned before 0.3 get their IT_ADMIN as an active member from what provisioning recorded: the
 * `user_id` of their latest `idp.invite_sent` event.
 *
 * Every replica caches members for the claims path: changes notify `u:<user_id>` on `registry_changes`; a change of a
 * role's permissions (or a role's removal) notifies `r:`, after which every cached member is read again.
 */
export class Migration20261128000020Members extends Migration {
  override name = 'Migration20261128000020Members';

  up(): void {
    this.addSql(`
      create table members (
        tenant_id uuid not null references tenants (id),
        user_id text not null check (char_length(user_id) between 1 and 255),
        email text not null default '',
        name text not null default '',
        status text not null check (status in ('active', 'inactive', 'pending')),
        source text not null check (source in ('provisioning', 'invitation', 'registry', 'directory', 'sso')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        primary key (tenant_id, user_id)
      )`);
    this.addSql(`create index members_user_idx on members (user_id)`);
    // The list's order (e-mail, then user id) and its q= prefix search on e-mail or name, case-insensitive.
    this.addSql(`create index members_tenant_email_idx on members (tenant_id, lower(email) text_pattern_ops, user_id)`);
    this.addSql(`create index members_tenant_name_idx on members (tenant_id, lower(name) text_pattern_ops)`);
    this.addSql(`
      create table member_roles (
        tenant_id uuid not null,
        user_id text not null,
        role_id uuid not null references roles (id),
        primary key (tenant_id, user_id, role_id),
        foreign key (tenant_id, user_id) references members (tenant_id, user_id) on delete cascade
      )`);
    this.addSql(`create index member_roles_role_idx on member_roles (role_id)`);

    this.addSql(`alter table tenant_actor_outbox drop constraint if exists tenant_actor_outbox_command_check`);
    this.addSql(`alter table tenant_actor_outbox add constraint tenant_actor_outbox_command_check
      check (command in ('provision', 'pushClaims', 'syncMember'))`);
    this.addSql(`alter table tenant_actor_outbox add column payload jsonb`);

    // The simulated provider's faults reach the member steps too.
    this.addSql(`alter table idp_sim_faults drop constraint if exists idp_sim_faults_step_check`);
    this.addSql(`alter table idp_sim_faults add constraint idp_sim_faults_step_check check (step in
      ('organization','user','membership','invite','list_users','push_claims','memberships','find_user','remove_membership','ping'))`);

    this.addSql(`
      create function registry_notify_member_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform pg_notify('registry_changes', 'u:' || old.user_id);
        else
          perform pg_notify('registry_changes', 'u:' || new.user_id);
          if tg_op = 'UPDATE' and new.user_id is distinct from old.user_id then
            perform pg_notify('registry_changes', 'u:' || old.user_id);
          end if;
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger members_notify_change after insert or update or delete on members for each row
      execute function registry_notify_member_change()`);
    this.addSql(`create trigger member_roles_notify_change after insert or update or delete on member_roles for each row
      execute function registry_notify_member_change()`);
    this.addSql(`
      create function registry_notify_role_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('registry_changes', 'r:');
        return null;
      end $$`);
    this.addSql(`create trigger role_permissions_notify_change after insert or update or delete on role_permissions
      for each statement execute function registry_notify_role_change()`);
    this.addSql(`create trigger roles_notify_change after update or delete on roles
      for each statement execute function registry_notify_role_change()`);

    // The IT_ADMINs of tenants provisioned before 0.3, from their latest successful invite.
    this.addSql(`
      insert into members (tenant_id, user_id, email, name, status, source, created_at, updated_at)
      select distinct on (e.tenant_id) e.tenant_id, e.metadata->>'user_id', coalesce(t.admin_email, ''), coalesce(t.admin_name, ''),
             'active', 'provisioning', e.created_at, e.created_at
        from audit_events e join tenants t on t.id = e.tenant_id
       where e.action = 'idp.invite_sent' and coalesce(e.metadata->>'user_id', '') <> ''
       order by e.tenant_id, e.id desc
      on conflict do nothing`);
    this.addSql(`
      insert into member_roles (tenant_id, user_id, role_id)
      select m.tenant_id, m.user_id, r.id from members m join roles r on r.slug = 'IT_ADMIN' and r.tenant_id is null
      on conflict do nothing`);
  }
}
