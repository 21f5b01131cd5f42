import type { Sql } from './sql.ts';
import type { FaultKind, FaultStep } from './simulatorControl.ts';

/**
 * Every statement of the simulated identity provider (identityProvider/simulatedIdentityProvider.ts) over its
 * idp_sim_* tables; the adapter keeps the behaviour (faults, races, Keycloak's answers), these only read and write.
 * Each is a single statement, so each runs on the pool as a named statement: parsed and planned once per connection,
 * where EntityManager.execute sent every call as new text with its values inlined (issue #19: planning was most of
 * what a user's memberships cost PostgreSQL).
 */
const run = async <R>(sql: Sql, name: string, text: string, values: unknown[]): Promise<R[]> =>
  (await sql.query<R>({ name: `idp_sim_${name}`, text, values })).rows;

/** Attribute filter for "belongs to this tenant", matched by containment so the GIN index serves it. */
const ownedBy = (tenantId: string) => JSON.stringify({ tenant_id: [tenantId] });

/** The organization carrying this tenant's id in its tenant_id attribute. */
export async function organizationOfTenant(sql: Sql, tenantId: string): Promise<string | undefined> {
  const rows = await run<{ id: string }>(sql, 'organization_of_tenant', `select id from idp_sim_organizations where attributes @> $1::jsonb order by created_at limit 1`, [
    ownedBy(tenantId),
  ]);
  return rows[0]?.id;
}

/** The new organization's id, or undefined when its name or alias is taken. */
export async function insertOrganization(sql: Sql, org: { name: string; alias: string; tenantId: string }): Promise<string | undefined> {
  const rows = await run<{ id: string }>(
    sql,
    'insert_organization',
    `insert into idp_sim_organizations (name, alias, attributes) values ($1, $2, $3::jsonb) on conflict do nothing returning id`,
    [org.name, org.alias, ownedBy(org.tenantId)],
  );
  return rows[0]?.id;
}

/** Users holding the address as e-mail or username, and whether each is this tenant's. */
export function usersWithAddress(sql: Sql, tenantId: string, address: string): Promise<{ id: string; owned: boolean }[]> {
  return run(sql, 'users_with_address', `select id, attributes @> $1::jsonb as owned from idp_sim_users where email = $2 or username = $2`, [ownedBy(tenantId), address]);
}

/** The account of this id or holding this address (the oldest), with its home tenant; undefined when there is none. */
export async function accountRow(
  sql: Sql,
  by: { userId: string } | { address: string },
): Promise<{ id: string; email: string; first_name: string | null; last_name: string | null; home_tenant_id: string | null } | undefined> {
  const columns = `id, email, first_name, last_name, attributes->'tenant_id'->>0 as home_tenant_id`;
  const rows = await run<{ id: string; email: string; first_name: string | null; last_name: string | null; home_tenant_id: string | null }>(
    sql,
    'userId' in by ? 'account_by_id' : 'account_by_address',
    'userId' in by ? `select ${columns} from idp_sim_users where id = $1` : `select ${columns} from idp_sim_users where email = $1 or username = $1 order by created_at limit 1`,
    ['userId' in by ? by.userId : by.address],
  );
  return rows[0];
}

/** A user's e-mail and names; undefined when there is no such user. */
export async function userById(sql: Sql, userId: string): Promise<{ email: string; first_name: string | null; last_name: string | null } | undefined> {
  const rows = await run<{ email: string; first_name: string | null; last_name: string | null }>(
    sql,
    'user_by_id',
    'select email, first_name, last_name from idp_sim_users where id = $1',
    [userId],
  );
  return rows[0];
}

/** The new user's id, or undefined when the username or e-mail is taken. */
export async function insertUser(
  sql: Sql,
  user: { address: string; firstName: string | null; lastName: string | null; tenantId: string; realmRoles: string[]; requiredActions: string[] },
): Promise<string | undefined> {
  const rows = await run<{ id: string }>(
    sql,
    'insert_user',
    `insert into idp_sim_users (username, email, first_name, last_name, attributes, realm_roles, required_actions)
     values ($1, $1, $2, $3, $4::jsonb, $5::text[], $6::text[]) on conflict do nothing returning id`,
    [user.address, user.firstName, user.lastName, ownedBy(user.tenantId), user.realmRoles, user.requiredActions],
  );
  return rows[0]?.id;
}

/** Adds the membership (already a member is fine); false when the organization or the user does not exist. */
export async function addMembership(sql: Sql, organizationId: string, userId: string): Promise<boolean> {
  const rows = await run<{ found: boolean }>(
    sql,
    'add_membership',
    `with added as (
       insert into idp_sim_memberships (organization_id, user_id)
       select o.id, u.id from idp_sim_organizations o, idp_sim_users u where o.id = $1 and u.id = $2
       on conflict do nothing
     )
     select exists (select 1 from idp_sim_organizations where id = $1)
        and exists (select 1 from idp_sim_users where id = $2) as found`,
    [organizationId, userId],
  );
  return rows[0]?.found === true;
}

/** Records the e-mail sent to the user (its action link), or undefined when there is no such user. */
export async function insertEmail(
  sql: Sql,
  email: { userId: string; subject: string; actions: string[]; actionUrl: string; invitationId: string | null; linkNonce: string | null; delivered: boolean },
): Promise<string | undefined> {
  const rows = await run<{ action_url: string }>(
    sql,
    'insert_email',
    `insert into idp_sim_emails (user_id, to_address, subject, actions, action_url, invitation_id, link_nonce, delivered)
     select id, email, $1, $2::text[], $3, $5, $6, $7 from idp_sim_users where id = $4 returning action_url`,
    [email.subject, email.actions, email.actionUrl, email.userId, email.invitationId, email.linkNonce, email.delivered],
  );
  return rows[0]?.action_url;
}

export async function memberIdsOfTenant(sql: Sql, tenantId: string): Promise<string[]> {
  const rows = await run<{ user_id: string }>(
    sql,
    'member_ids_of_tenant',
    `select m.user_id from idp_sim_memberships m join idp_sim_organizations o on o.id = m.organization_id
      where o.attributes @> $1::jsonb order by m.created_at, m.user_id`,
    [ownedBy(tenantId)],
  );
  return rows.map((row) => row.user_id);
}

/** Takes the user out of the organization; nothing happens when it is not a member. */
export async function deleteMembership(sql: Sql, organizationId: string, userId: string): Promise<void> {
  await run(sql, 'delete_membership', 'delete from idp_sim_memberships where organization_id = $1 and user_id = $2', [organizationId, userId]);
}

/** The user's attributes; undefined when there is no such user. */
export async function userAttributes(sql: Sql, userId: string): Promise<Record<string, string[]> | undefined> {
  const rows = await run<{ attributes: Record<string, string[]> }>(sql, 'user_attributes', 'select attributes from idp_sim_users where id = $1', [userId]);
  return rows[0]?.attributes;
}

/**
 * Replaces the user's attributes if they are still `expected` (as read before the change was computed); false when
 * they changed in between or the user is gone, so the caller reads again.
 */
export async function replaceUserAttributes(
  sql: Sql,
  userId: string,
  expected: Record<string, string[]>,
  attributes: Record<string, string[]>,
): Promise<boolean> {
  const rows = await run<{ id: string }>(
    sql,
    'replace_user_attributes',
    'update idp_sim_users set attributes = $3::jsonb where id = $1 and attributes = $2::jsonb returning id',
    [userId, JSON.stringify(expected), JSON.stringify(attributes)],
  );
  return rows.length > 0;
}

/** One organization of a user, with the user's attributes (org_roles among them). */
export interface UserOrganizationRow {
  user_id: string;
  id: string;
  alias: string;
  name: string;
  org_attributes: Record<string, string[]>;
  user_attributes: Record<string, string[]>;
}

/** The organizations of each of these users, by alias, in one statement (users without any are left out). */
export async function membershipsOfUsers(sql: Sql, userIds: string[]): Promise<Map<string, UserOrganizationRow[]>> {
  const rows = await run<UserOrganizationRow>(
    sql,
    'memberships_of_users',
    `select m.user_id, o.id, o.alias, o.name, o.attributes as org_attributes, u.attributes as user_attributes
       from idp_sim_memberships m
       join idp_sim_organizations o on o.id = m.organization_id
       join idp_sim_users u on u.id = m.user_id
      where m.user_id = any ($1::uuid[]) order by m.user_id, o.alias`,
    [userIds],
  );
  const byUser = new Map<string, UserOrganizationRow[]>();
  for (const row of rows) {
    const organizations = byUser.get(row.user_id);
    if (organizations) organizations.push(row);
    else byUser.set(row.user_id, [row]);
  }
  return byUser;
}

/** An action link the simulator issued: its user (with the user's password hash, null until one is set) and actions. */
export interface ActionLinkRow {
  user_id: string;
  email: string;
  password_hash: string | null;
  required_actions: string[];
  actions: string[];
  invitation_id: string | null;
  link_nonce: string | null;
}

/** The invited user and actions behind an action link the simulator issued. */
export async function actionLink(sql: Sql, actionUrl: string): Promise<ActionLinkRow | undefined> {
  const rows = await run<ActionLinkRow>(
    sql,
    'action_link',
    `select u.id as user_id, u.email, u.password_hash, u.required_actions, e.actions, e.invitation_id, e.link_nonce
       from idp_sim_emails e join idp_sim_users u on u.id = e.user_id
      where e.action_url = $1`,
    [actionUrl],
  );
  return rows[0];
}

/**
 * The user's first password, set through its action link: no required action left, e-mail verified by the link it
 * opened. Only while it has no password and still awaits one; false otherwise (one was set meanwhile).
 */
export async function setFirstPassword(sql: Sql, userId: string, passwordHash: string): Promise<boolean> {
  const rows = await run<{ id: string }>(
    sql,
    'set_first_password',
    `update idp_sim_users set password_hash = $2, required_actions = '{}', email_verified = true
      where id = $1 and password_hash is null and 'UPDATE_PASSWORD' = any (required_actions) returning id`,
    [userId, passwordHash],
  );
  return rows.length > 0;
}

/** The enabled user holding the address as e-mail or username, with its password hash (null: it has none). */
export async function credentialsOfAddress(sql: Sql, address: string): Promise<{ id: string; password_hash: string | null } | undefined> {
  const rows = await run<{ id: string; password_hash: string | null }>(
    sql,
    'credentials_of_address',
    `select id, password_hash from idp_sim_users where (email = $1 or username = $1) and enabled order by created_at limit 1`,
    [address],
  );
  return rows[0];
}

/** The user holding the address as e-mail or username, whoever's it is. */
export async function userWithAddress(sql: Sql, address: string): Promise<string | undefined> {
  const rows = await run<{ id: string }>(sql, 'user_with_address', `select id from idp_sim_users where email = $1 or username = $1 order by created_at limit 1`, [address]);
  return rows[0]?.id;
}

/** Sets the organization's domains, as Keycloak's organization representation lists them. */
export async function replaceOrganizationDomains(sql: Sql, organizationId: string, domains: { name: string; verified: boolean }[]): Promise<void> {
  await run(sql, 'replace_organization_domains', 'update idp_sim_organizations set domains = $2::jsonb where id = $1', [organizationId, JSON.stringify(domains)]);
}

/** An organization's identity provider, made or replaced. */
export async function putIdentityProvider(sql: Sql, idp: { alias: string; organizationId: string; enabled: boolean; config: object }): Promise<void> {
  await run(
    sql,
    'put_identity_provider',
    `insert into idp_sim_identity_providers (alias, organization_id, config, enabled) values ($1, $2, $3::jsonb, $4)
     on conflict (alias) do update set organization_id = excluded.organization_id, config = excluded.config, enabled = excluded.enabled`,
    [idp.alias, idp.organizationId, JSON.stringify(idp.config), idp.enabled],
  );
}

export async function identityProviderExists(sql: Sql, alias: string): Promise<boolean> {
  return (await run<{ alias: string }>(sql, 'identity_provider_exists', 'select alias from idp_sim_identity_providers where alias = $1', [alias])).length > 0;
}

/** The protocol an identity provider was made for (`oidc` for one kept before SAML, whose config names none); undefined when there is none. */
export async function identityProviderProtocol(sql: Sql, alias: string): Promise<string | undefined> {
  const [row] = await run<{ protocol: string }>(sql, 'identity_provider_protocol', `select coalesce(config->>'protocol', 'oidc') as protocol from idp_sim_identity_providers where alias = $1`, [alias]);
  return row?.protocol;
}

export async function deleteIdentityProvider(sql: Sql, alias: string): Promise<void> {
  await run(sql, 'delete_identity_provider', 'delete from idp_sim_identity_providers where alias = $1', [alias]);
}

/** Enables or disables the user; false when there is no such user. */
export async function setEnabled(sql: Sql, userId: string, enabled: boolean): Promise<boolean> {
  return (await run<{ id: string }>(sql, 'set_enabled', 'update idp_sim_users set enabled = $2 where id = $1 returning id', [userId, enabled])).length > 0;
}

export async function pingTables(sql: Sql): Promise<void> {
  await run(sql, 'ping', 'select 1', []);
}

/**
 * The tenants an operation acts for, which a tenant-scoped fault must name: their slugs, or what names their
 * organizations (the organization, a member user, the tenant), whose aliases are the slugs.
 */
export interface FaultScope {
  slugs?: string[];
  subject?: { organizationId: string | null; userId: string | null; tenantId?: string };
}

/**
 * The steps at which some fault is armed (null: a fault at any provisioning step). The table is empty but for tests
 * and drills, and this is what an operation pays then: `takeFault` below is planned afresh at every call (its null
 * parameters fold whole branches away, so a custom plan always looks cheaper than the generic one): for one probe
 * of an empty table, most of what a user's memberships cost PostgreSQL (docs/performance.md).
 */
export async function armedFaultSteps(sql: Sql): Promise<Set<string | null>> {
  const rows = await run<{ step: string | null }>(sql, 'armed_fault_steps', 'select distinct step from idp_sim_faults', []);
  return new Set(rows.map((row) => row.step));
}

/**
 * Takes the oldest matching fault, counting it down and deleting it when spent, in one statement. The row lock
 * serialises concurrent callers so a fault injected for N calls fails exactly N. The organizations' aliases are
 * looked up in the same statement, one index lookup per way of naming them, and only when a fault scoped to a tenant
 * is there to compare them with.
 */
export async function takeFault(sql: Sql, step: FaultStep, isProvisioningStep: boolean, actsFor: FaultScope): Promise<FaultKind | undefined> {
  const { subject } = actsFor;
  const rows = await run<{ kind: FaultKind }>(
    sql,
    'take_fault',
    `with aliases as (
       select alias from idp_sim_organizations where id = $4::uuid
       union
       select alias from idp_sim_organizations where attributes @> $5::jsonb
       union
       select o.alias from idp_sim_memberships m join idp_sim_organizations o on o.id = m.organization_id where m.user_id = $6::uuid
     ), picked as (
       select id, kind, remaining from idp_sim_faults
        where (step = $1 or (step is null and $2::boolean))
          and (tenant_slug is null or tenant_slug = any ($3::text[]) or tenant_slug in (select alias from aliases))
        order by id limit 1
        for update
     ), counted as (
       update idp_sim_faults f set remaining = f.remaining - 1 from picked where f.id = picked.id and picked.remaining > 1
     ), spent as (
       delete from idp_sim_faults f using picked where f.id = picked.id and picked.remaining = 1
     )
     select kind from picked`,
    [
      step,
      isProvisioningStep,
      actsFor.slugs ?? [],
      subject?.organizationId ?? null,
      subject?.tenantId ? ownedBy(subject.tenantId) : null,
      subject?.userId ?? null,
    ],
  );
  return rows[0]?.kind;
}
