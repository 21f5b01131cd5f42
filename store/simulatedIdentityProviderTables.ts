import type { EntityManager } from '@mikro-orm/postgresql';
import type { FaultKind, FaultStep } from './simulatorControl.ts';

/**
 * Every statement of the simulated identity provider (identityProvider/simulatedIdentityProvider.ts) over its
 * idp_sim_* tables; the adapter keeps the behaviour (faults, races, Keycloak's answers), these only read and write.
 */

/** Attribute filter for "belongs to this tenant", matched by containment so the GIN index serves it. */
const ownedBy = (tenantId: string) => JSON.stringify({ tenant_id: [tenantId] });

/** The organization carrying this tenant's id in its tenant_id attribute. */
export async function organizationOfTenant(em: EntityManager, tenantId: string): Promise<string | undefined> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from idp_sim_organizations where attributes @> ?::jsonb order by created_at limit 1`,
    [ownedBy(tenantId)],
  );
  return rows[0]?.id;
}

/** The new organization's id, or undefined when its name or alias is taken. */
export async function insertOrganization(em: EntityManager, org: { name: string; alias: string; tenantId: string }): Promise<string | undefined> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into idp_sim_organizations (name, alias, attributes) values (?, ?, ?::jsonb) on conflict do nothing returning id`,
    [org.name, org.alias, ownedBy(org.tenantId)],
  );
  return rows[0]?.id;
}

/** Users holding the address as e-mail or username, and whether each is this tenant's. */
export function usersWithAddress(em: EntityManager, tenantId: string, address: string): Promise<{ id: string; owned: boolean }[]> {
  return em.execute<{ id: string; owned: boolean }[]>(`select id, attributes @> ?::jsonb as owned from idp_sim_users where email = ? or username = ?`, [
    ownedBy(tenantId),
    address,
    address,
  ]);
}

/** The new user's id, or undefined when the username or e-mail is taken. */
export async function insertUser(
  em: EntityManager,
  user: { address: string; firstName: string | null; lastName: string | null; tenantId: string; realmRoles: string[]; requiredActions: string[] },
): Promise<string | undefined> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into idp_sim_users (username, email, first_name, last_name, attributes, realm_roles, required_actions)
     values (?, ?, ?, ?, ?::jsonb, array[?]::text[], array[?]::text[]) on conflict do nothing returning id`,
    [user.address, user.address, user.firstName, user.lastName, ownedBy(user.tenantId), user.realmRoles, user.requiredActions],
  );
  return rows[0]?.id;
}

/** Adds the membership (already a member is fine); false when the organization or the user does not exist. */
export async function addMembership(em: EntityManager, organizationId: string, userId: string): Promise<boolean> {
  const rows = await em.execute<{ found: boolean }[]>(
    `with added as (
       insert into idp_sim_memberships (organization_id, user_id)
       select o.id, u.id from idp_sim_organizations o, idp_sim_users u where o.id = ? and u.id = ?
       on conflict do nothing
     )
     select exists (select 1 from idp_sim_organizations where id = ?)
        and exists (select 1 from idp_sim_users where id = ?) as found`,
    [organizationId, userId, organizationId, userId],
  );
  return rows[0]?.found === true;
}

/** Records the e-mail sent to the user (its action link), or undefined when there is no such user. */
export async function insertEmail(em: EntityManager, email: { userId: string; subject: string; actions: string[]; actionUrl: string }): Promise<string | undefined> {
  const rows = await em.execute<{ action_url: string }[]>(
    `insert into idp_sim_emails (user_id, to_address, subject, actions, action_url)
     select id, email, ?, array[?]::text[], ? from idp_sim_users where id = ? returning action_url`,
    [email.subject, email.actions, email.actionUrl, email.userId],
  );
  return rows[0]?.action_url;
}

export async function memberIdsOfTenant(em: EntityManager, tenantId: string): Promise<string[]> {
  const rows = await em.execute<{ user_id: string }[]>(
    `select m.user_id from idp_sim_memberships m join idp_sim_organizations o on o.id = m.organization_id
      where o.attributes @> ?::jsonb order by m.created_at, m.user_id`,
    [ownedBy(tenantId)],
  );
  return rows.map((row) => row.user_id);
}

/**
 * Merges attributes into the user's, so attributes not given stay; like Keycloak, an attribute set to an empty list
 * is removed rather than kept empty. False when there is no such user.
 */
export async function mergeUserAttributes(em: EntityManager, userId: string, attributes: Record<string, string[]>): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(
    `update idp_sim_users u set attributes = (
       select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
         from jsonb_each(u.attributes || ?::jsonb) where value <> '[]'::jsonb)
     where id = ? returning id`,
    [JSON.stringify(attributes), userId],
  );
  return rows.length > 0;
}

export function membershipsOfUser(
  em: EntityManager,
  userId: string,
): Promise<{ id: string; alias: string; name: string; org_attributes: Record<string, string[]>; user_attributes: Record<string, string[]> }[]> {
  return em.execute(
    `select o.id, o.alias, o.name, o.attributes as org_attributes, u.attributes as user_attributes
       from idp_sim_memberships m
       join idp_sim_organizations o on o.id = m.organization_id
       join idp_sim_users u on u.id = m.user_id
      where m.user_id = ? order by o.alias`,
    [userId],
  );
}

/** The invited user and actions behind an action link the simulator issued. */
export async function actionLink(em: EntityManager, actionUrl: string): Promise<{ email: string; required_actions: string[]; actions: string[] } | undefined> {
  const rows = await em.execute<{ email: string; required_actions: string[]; actions: string[] }[]>(
    `select u.email, u.required_actions, e.actions from idp_sim_emails e join idp_sim_users u on u.id = e.user_id
      where e.action_url = ?`,
    [actionUrl],
  );
  return rows[0];
}

export async function pingTables(em: EntityManager): Promise<void> {
  await em.execute('select 1');
}

/** The aliases (tenant slugs) of the organizations an operation acts on, for tenant-scoped faults. */
export async function aliasesOf(em: EntityManager, subject: { organizationId: string | null; userId: string | null; tenantId?: string }): Promise<string[]> {
  const rows = await em.execute<{ alias: string }[]>(
    `select alias from idp_sim_organizations
      where id = ?::uuid or attributes @> ?::jsonb
         or id in (select organization_id from idp_sim_memberships where user_id = ?::uuid)`,
    [subject.organizationId, subject.tenantId ? ownedBy(subject.tenantId) : null, subject.userId],
  );
  return rows.map((row) => row.alias);
}

/**
 * Takes the oldest matching fault, counting it down and deleting it when spent, in one statement. The row lock
 * serialises concurrent callers so a fault injected for N calls fails exactly N.
 */
export async function takeFault(em: EntityManager, step: FaultStep, isProvisioningStep: boolean, tenantSlugs: string[]): Promise<FaultKind | undefined> {
  const rows = await em.execute<{ kind: FaultKind }[]>(
    `with picked as (
       select id, kind, remaining from idp_sim_faults
        where (step = ? or (step is null and ?::boolean))
          and (tenant_slug is null or tenant_slug = any (array[?]::text[]))
        order by id limit 1
        for update
     ), counted as (
       update idp_sim_faults f set remaining = f.remaining - 1 from picked where f.id = picked.id and picked.remaining > 1
     ), spent as (
       delete from idp_sim_faults f using picked where f.id = picked.id and picked.remaining = 1
     )
     select kind from picked`,
    [step, isProvisioningStep, tenantSlugs],
  );
  return rows[0]?.kind;
}
