import { Migration } from '@mikro-orm/migrations';

/**
 * Domains a tenant claims (SPEC-EXTENSIONS §9), each with the token its TXT record must carry and the time of its
 * next look-up by the tenant's actor. One tenant may hold a name verified at a time (a partial unique index); a
 * tenant claims a name once. The actor's `syncDomains` command sets the organization's verified domains; the
 * simulated provider's organizations gain their domains as Keycloak's have them.
 */
export class Migration20261129000023Domains extends Migration {
  override name = 'Migration20261129000023Domains';

  up(): void {
    this.addSql(`
      create table domains (
        id uuid primary key,
        tenant_id uuid not null references tenants (id),
        domain text not null check (domain = lower(domain) and char_length(domain) between 3 and 253),
        state text not null check (state in ('pending', 'verified', 'failed')),
        token text not null,
        verified_at timestamptz,
        last_checked_at timestamptz,
        next_check_at timestamptz,
        misses integer not null default 0,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (tenant_id, domain)
      )`);
    this.addSql(`create unique index domains_verified_idx on domains (domain) where state = 'verified'`);
    this.addSql(`create index domains_next_check_idx on domains (tenant_id, next_check_at) where next_check_at is not null`);

    this.addSql(`alter table tenant_actor_outbox drop constraint if exists tenant_actor_outbox_command_check`);
    this.addSql(`alter table tenant_actor_outbox add constraint tenant_actor_outbox_command_check
      check (command in ('provision', 'pushClaims', 'syncMember', 'sendInvitation', 'syncDomains'))`);

    this.addSql(`alter table idp_sim_organizations add column domains jsonb not null default '[]'`);
  }
}
