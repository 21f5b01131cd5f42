import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Claims } from '../domain/schemas/claims.ts';
import type { Orm } from '../store/orm.ts';
import {
  claimsAsUserAttributes,
  IdpError,
  INVITE_ACTIONS,
  IT_ADMIN_ROLE,
  type IdentityProvider,
  type IdpMembership,
  type TenantRef,
} from './identityProvider.ts';
import type { FaultKind, FaultStep } from './simulatorControl.ts';
import { PROVISIONING_STEPS } from '../workflows/provisioningVocabulary.ts';

/** Keycloak's default subject of the execute-actions e-mail. */
const INVITE_SUBJECT = 'Update Your Account';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const FAULT_RESPONSES: Record<FaultKind, { status: number; message: string }> = {
  unauthorized: { status: 401, message: 'HTTP 401 Unauthorized' },
  unavailable: { status: 503, message: 'HTTP 503 Service Unavailable' },
  organization_exists: { status: 409, message: 'organization already exists' },
  user_exists: { status: 409, message: 'User exists with same username or email' },
};

/** Attribute filter for "belongs to this tenant", matched by containment so the GIN index serves it. */
const ownedBy = (tenantId: string) => JSON.stringify({ tenant_id: [tenantId] });

const notFound = (what: string) => new IdpError('rejected', `${what} not found`, 404);

/**
 * The identity provider used when IDP_ADMIN_URL is empty: Keycloak 26's observable behaviour (organizations,
 * users with a realm role and required actions, memberships, execute-actions e-mails carrying an action-token
 * link) kept in the idp_sim_* tables, so the API and the worker share it and restarts lose nothing.
 *
 * Invite URLs have Keycloak's action-token shape under the service's own base URL:
 * `{publicBaseUrl}/idp-sim/login-actions/action-token?key={token}`, token = 32 random bytes, base64url.
 *
 * Faults injected through simulatorControl.ts are consulted before every operation. A failure of the simulator's
 * own store surfaces as `unavailable`, as an unreachable Keycloak would.
 */
export class SimulatedIdentityProvider implements IdentityProvider {
  readonly #orm: Orm;
  readonly #actionTokenUrl: string;

  constructor(orm: Orm, publicBaseUrl: string) {
    this.#orm = orm;
    this.#actionTokenUrl = `${publicBaseUrl.replace(/\/+$/, '')}/idp-sim/login-actions/action-token?key=`;
  }

  ensureOrganization(tenant: TenantRef): Promise<{ organizationId: string }> {
    return this.#run('organization', async () => [tenant.slug], async (em) => {
      const existing = await organizationOf(em, tenant.tenantId);
      if (existing) return { organizationId: existing };
      const inserted = await em.execute<{ id: string }[]>(
        `insert into idp_sim_organizations (name, alias, attributes) values (?, ?, ?::jsonb) on conflict do nothing returning id`,
        [tenant.name, tenant.slug, ownedBy(tenant.tenantId)],
      );
      if (inserted[0]) return { organizationId: inserted[0].id };
      // The name or alias is taken: by a concurrent attempt for this same tenant (reuse it), or by someone else.
      const raced = await organizationOf(em, tenant.tenantId);
      if (raced) return { organizationId: raced };
      throw new IdpError('organization_exists', `an organization with name "${tenant.name}" or alias "${tenant.slug}" already exists`, 409);
    });
  }

  ensureUser(tenant: TenantRef, email: string, name: string | undefined): Promise<{ userId: string }> {
    const address = email.trim().toLowerCase();
    return this.#run('user', async () => [tenant.slug], async (em) => {
      const existing = await userFor(em, tenant.tenantId, address);
      if (existing) return { userId: existing };
      const [firstName, ...rest] = (name ?? '').trim().split(/\s+/);
      const inserted = await em.execute<{ id: string }[]>(
        `insert into idp_sim_users (username, email, first_name, last_name, attributes, realm_roles, required_actions)
         values (?, ?, ?, ?, ?::jsonb, array[?]::text[], array[?]::text[]) on conflict do nothing returning id`,
        [address, address, firstName || null, rest.join(' ') || null, ownedBy(tenant.tenantId), [IT_ADMIN_ROLE], INVITE_ACTIONS],
      );
      if (inserted[0]) return { userId: inserted[0].id };
      const raced = await userFor(em, tenant.tenantId, address);
      if (raced) return { userId: raced };
      throw new IdpError('user_exists', `a user with username or e-mail ${address} already exists`, 409);
    });
  }

  ensureMembership(organizationId: string, userId: string): Promise<void> {
    return this.#run('membership', (em) => aliasesOf(em, { organizationId }), async (em) => {
      if (!UUID.test(organizationId) || !UUID.test(userId)) throw notFound('organization or user');
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
      if (!rows[0]?.found) throw notFound('organization or user');
    });
  }

  sendInvite(userId: string): Promise<{ inviteUrl: string }> {
    return this.#run('invite', (em) => aliasesOf(em, { userId }), async (em) => {
      if (!UUID.test(userId)) throw notFound('user');
      const actionUrl = this.#actionTokenUrl + randomBytes(32).toString('base64url');
      const rows = await em.execute<{ action_url: string }[]>(
        `insert into idp_sim_emails (user_id, to_address, subject, actions, action_url)
         select id, email, ?, array[?]::text[], ? from idp_sim_users where id = ? returning action_url`,
        [INVITE_SUBJECT, INVITE_ACTIONS, actionUrl, userId],
      );
      if (!rows[0]) throw notFound('user');
      return { inviteUrl: rows[0].action_url };
    });
  }

  listTenantUserIds(tenantId: string): Promise<string[]> {
    return this.#run('list_users', (em) => aliasesOf(em, { tenantId }), async (em) => {
      const rows = await em.execute<{ user_id: string }[]>(
        `select m.user_id from idp_sim_memberships m join idp_sim_organizations o on o.id = m.organization_id
          where o.attributes @> ?::jsonb order by m.created_at, m.user_id`,
        [ownedBy(tenantId)],
      );
      return rows.map((row) => row.user_id);
    });
  }

  pushClaims(userId: string, claims: Claims): Promise<void> {
    return this.#run('push_claims', async () => [claims.tenant_slug], async (em) => {
      if (!UUID.test(userId)) throw notFound('user');
      // A merge, so attributes the bundle does not carry (org_roles among them) stay; like Keycloak, an attribute
      // set to an empty list is removed rather than kept empty.
      const rows = await em.execute<{ id: string }[]>(
        `update idp_sim_users u set attributes = (
           select coalesce(jsonb_object_agg(key, value), '{}'::jsonb)
             from jsonb_each(u.attributes || ?::jsonb) where value <> '[]'::jsonb)
         where id = ? returning id`,
        [JSON.stringify(claimsAsUserAttributes(claims)), userId],
      );
      if (!rows[0]) throw notFound('user');
    });
  }

  memberships(userId: string): Promise<IdpMembership[]> {
    return this.#run('memberships', (em) => aliasesOf(em, { userId }), async (em) => {
      if (!UUID.test(userId)) return [];
      const rows = await em.execute<
        { id: string; alias: string; name: string; org_attributes: Record<string, string[]>; user_attributes: Record<string, string[]> }[]
      >(
        `select o.id, o.alias, o.name, o.attributes as org_attributes, u.attributes as user_attributes
           from idp_sim_memberships m
           join idp_sim_organizations o on o.id = m.organization_id
           join idp_sim_users u on u.id = m.user_id
          where m.user_id = ? order by o.alias`,
        [userId],
      );
      return rows.map((row) => {
        const membership: IdpMembership = {
          organizationId: row.id,
          alias: row.alias,
          name: row.name,
          orgRoles: row.user_attributes.org_roles ?? [],
          attributes: row.user_attributes,
        };
        const tenantId = row.org_attributes.tenant_id?.[0];
        if (tenantId) membership.tenantId = tenantId;
        return membership;
      });
    });
  }

  /**
   * What the simulated provider's action link leads to: the pending required actions of the invited user, or
   * undefined for a link it never issued (Keycloak shows an "invalid or expired" page then).
   */
  async describeActionToken(key: string): Promise<{ email: string; requiredActions: string[]; actions: string[] } | undefined> {
    const rows = await this.#orm.em.fork().execute<{ email: string; required_actions: string[]; actions: string[] }[]>(
      `select u.email, u.required_actions, e.actions from idp_sim_emails e join idp_sim_users u on u.id = e.user_id
        where e.action_url = ?`,
      [this.#actionTokenUrl + key],
    );
    const row = rows[0];
    return row && { email: row.email, requiredActions: row.required_actions, actions: row.actions };
  }

  ping(): Promise<void> {
    return this.#run('ping', async () => [], async (em) => {
      await em.execute('select 1');
    });
  }

  /** Raises an injected fault matching the step and the tenants the operation acts for, then runs the operation. */
  async #run<T>(
    step: FaultStep,
    tenantSlugs: (em: EntityManager) => Promise<string[]>,
    operation: (em: EntityManager) => Promise<T>,
  ): Promise<T> {
    const em = this.#orm.em.fork();
    try {
      const fault = await takeFault(em, step, await tenantSlugs(em));
      if (fault) {
        const response = FAULT_RESPONSES[fault];
        throw new IdpError(fault, `${response.message} (simulated fault at step ${step})`, response.status);
      }
      return await operation(em);
    } catch (error) {
      if (error instanceof IdpError) throw error;
      const unavailable = new IdpError('unavailable', 'simulated identity provider store is unreachable', 503);
      unavailable.cause = error;
      throw unavailable;
    }
  }
}

/** The organization carrying this tenant's id in its tenant_id attribute. */
async function organizationOf(em: EntityManager, tenantId: string): Promise<string | undefined> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from idp_sim_organizations where attributes @> ?::jsonb order by created_at limit 1`,
    [ownedBy(tenantId)],
  );
  return rows[0]?.id;
}

/**
 * This tenant's user with that address; a user holding the address as e-mail or username that is not exactly
 * that is someone else's, which is user_exists.
 */
async function userFor(em: EntityManager, tenantId: string, address: string): Promise<string | undefined> {
  const rows = await em.execute<{ id: string; owned: boolean }[]>(
    `select id, attributes @> ?::jsonb as owned from idp_sim_users where email = ? or username = ?`,
    [ownedBy(tenantId), address, address],
  );
  if (rows.length === 0) return undefined;
  const [row] = rows;
  if (rows.length === 1 && row?.owned) return row.id;
  throw new IdpError('user_exists', `a user with username or e-mail ${address} already exists`, 409);
}

/** The aliases (tenant slugs) of the organizations an operation acts on, for tenant-scoped faults. */
async function aliasesOf(em: EntityManager, subject: { organizationId?: string; userId?: string; tenantId?: string }): Promise<string[]> {
  const organizationId = subject.organizationId && UUID.test(subject.organizationId) ? subject.organizationId : null;
  const userId = subject.userId && UUID.test(subject.userId) ? subject.userId : null;
  const tenant = subject.tenantId ? ownedBy(subject.tenantId) : null;
  const rows = await em.execute<{ alias: string }[]>(
    `select alias from idp_sim_organizations
      where id = ?::uuid or attributes @> ?::jsonb
         or id in (select organization_id from idp_sim_memberships where user_id = ?::uuid)`,
    [organizationId, tenant, userId],
  );
  return rows.map((row) => row.alias);
}

/**
 * Takes the oldest matching fault, counting it down and deleting it when spent, in one statement. The row lock
 * serialises concurrent callers so a fault injected for N calls fails exactly N.
 */
async function takeFault(em: EntityManager, step: FaultStep, tenantSlugs: string[]): Promise<FaultKind | undefined> {
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
    [step, (PROVISIONING_STEPS as readonly string[]).includes(step), tenantSlugs],
  );
  return rows[0]?.kind;
}
