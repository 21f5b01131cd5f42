import pg from 'pg';
import { generateApiKey } from '../domain/apiKeyFormat.ts';

export interface Volumes {
  tenants: number;
  apiKeys: number;
  auditEvents: number;
  /** Plaintexts of valid keys kept for the load (the rest are only in the database, as hashes). */
  sampleKeys: number;
}

export interface SeededTenant {
  id: string;
  slug: string;
  status: string;
}

export interface Seeded {
  tenants: SeededTenant[];
  /** Valid keys (not revoked, tenant in a usable status), as plaintext. */
  validKeys: string[];
  products: string[];
  actions: string[];
  actors: string[];
  audit: { minId: number; maxId: number; from: Date; to: Date };
}

export const AUDIT_ACTIONS = [
  'tenant.created', 'tenant.activated', 'tenant.cancelled', 'api_key.created', 'api_key.revoked', 'entitlement.trial_started',
  'catalog.product_requested', 'idp.invite_sent', 'idp.provision_failed', 'user.login', 'user.logout', 'user.invited',
  'project.created', 'project.deleted', 'report.exported', 'settings.changed', 'billing.invoice_paid', 'billing.plan_changed',
  'data.exported', 'webhook.delivered',
];
const EXTRA_PRODUCTS = ['billing', 'support', 'reports'];
const MEMBER_ID_PREFIX = 'bench-admin:';

/** The identity-provider user id of the tenant's seeded member: an active IT_ADMIN of that tenant only. */
export const benchMemberOf = (tenant: SeededTenant): string => MEMBER_ID_PREFIX + tenant.slug;
const USABLE = new Set(['demo', 'trial', 'active']);
const AUDIT_SPAN_DAYS = 365;
const AUDIT_EVENTS_A_STATEMENT = 1_000_000;

/**
 * Realistic volumes straight into PostgreSQL (the service's own tables, after its migrations ran): tenants in every
 * status with entitlements, API keys made by the service's own key format (so verify accepts them), and an audit log
 * spread over tenants, actions, products, actors and a year of time, ids in the order of time as the service writes them.
 */
export async function seed(databaseUrl: string, volumes: Volumes, progress: (message: string) => void): Promise<Seeded> {
  // 200 events per actor at any volume (5,000 actors for a million events).
  const ACTORS = Math.max(10, Math.round(volumes.auditEvents / 200));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('set synchronous_commit = off');
    let started = performance.now();
    const lap = (what: string) => {
      progress(`seeded ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      started = performance.now();
    };

    const n = volumes.tenants;
    await db.query(
      `insert into tenants (id, slug, name, status, kind, plan, trial_ends_at, sales_owner, created_at, updated_at)
       select gen_random_uuid(), 'bench-' || lpad(i::text, 6, '0'), 'Bench Tenant ' || i,
              case when i % 20 = 0 then 'frozen' when i % 20 = 1 then 'demo' when i % 5 = 2 then 'trial' else 'active' end,
              case when i % 20 = 1 then 'demo' else 'customer' end,
              (array['starter', 'growth', 'enterprise'])[1 + i % 3],
              case when i % 5 = 2 and i % 20 > 1 then now() + interval '7 days' end,
              'sales-' || (i % 40),
              now() - interval '730 days' + i * (interval '730 days' / $1),
              now() - interval '730 days' + i * (interval '730 days' / $1)
         from generate_series(1, $1::int) i`,
      [n],
    );
    await db.query(
      `insert into tenant_products (tenant_id, product, enabled, config, expires_at, created_at, updated_at)
       select t.id, p.key, abs(hashtext(t.slug || ':' || p.key)) % 10 <> 0, '{}'::jsonb,
              case abs(hashtext(p.key || ':' || t.slug)) % 7 when 0 then now() - interval '3 days' when 1 then now() + interval '30 days' end,
              t.created_at, t.created_at
         from tenants t cross join catalog_products p
        where t.slug like 'bench-%' and abs(hashtext(t.slug || '/' || p.key)) % 3 <> 0`,
    );
    const tenants = (await db.query<SeededTenant>(`select id, slug, status from tenants where slug like 'bench-%' order by slug`)).rows;
    const catalog = (await db.query<{ key: string }>(`select key from catalog_products order by position`)).rows.map((r) => r.key);
    lap(`${tenants.length} tenants with entitlements`);

    await db.query(
      `insert into members (tenant_id, user_id, email, name, status, source, created_at, updated_at)
       select id, $1 || slug, 'admin@' || slug || '.example', 'Bench Admin', 'active', 'provisioning', created_at, created_at
         from tenants where slug like 'bench-%' on conflict do nothing`,
      [MEMBER_ID_PREFIX],
    );
    await db.query(
      `insert into member_roles (tenant_id, user_id, role_id)
       select m.tenant_id, m.user_id, r.id from members m join roles r on r.slug = 'IT_ADMIN' and r.tenant_id is null
        where m.user_id like $1 || '%' on conflict do nothing`,
      [MEMBER_ID_PREFIX],
    );
    lap(`${tenants.length} members (an IT_ADMIN a tenant)`);

    // Keys: 1 in 33 revoked; the sample is drawn from the others whose tenant can use them.
    const validKeys: string[] = [];
    const everyNth = Math.max(1, Math.floor(volumes.apiKeys / (volumes.sampleKeys * 1.3)));
    const batch = 5000;
    for (let from = 0; from < volumes.apiKeys; from += batch) {
      const cols = { tenant: [] as string[], product: [] as string[], name: [] as string[], prefix: [] as string[], hash: [] as string[], write: [] as boolean[], revoked: [] as boolean[] };
      for (let k = from; k < Math.min(volumes.apiKeys, from + batch); k++) {
        const tenant = tenants[k % tenants.length]!;
        const key = generateApiKey();
        const revoked = k % 33 === 0;
        cols.tenant.push(tenant.id);
        cols.product.push(k % 4 === 0 ? '' : catalog[k % catalog.length]!);
        cols.name.push(`bench key ${k}`);
        cols.prefix.push(key.prefix);
        cols.hash.push(key.hash.toString('hex'));
        cols.write.push(k % 3 === 0);
        cols.revoked.push(revoked);
        if (!revoked && USABLE.has(tenant.status) && k % everyNth === 0 && validKeys.length < volumes.sampleKeys) validKeys.push(key.plaintext);
      }
      await db.query(
        `insert into api_keys (id, tenant_id, product, name, scopes, prefix, key_hash, created_by, revoked_at, expires_at, created_at)
         select gen_random_uuid(), t, nullif(p, ''), nm, case when w then '{read,write}'::text[] else '{read}'::text[] end,
                pr, decode(h, 'hex'), 'bench', case when r then now() - interval '1 day' end,
                case when w then now() + interval '365 days' end, now() - interval '30 days'
           from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::bool[]) as u(t, p, nm, pr, h, w, r)`,
        [cols.tenant, cols.product, cols.name, cols.prefix, cols.hash, cols.write, cols.revoked],
      );
    }
    lap(`${volumes.apiKeys} API keys`);

    const products = [...catalog, ...EXTRA_PRODUCTS];
    // A statement per million events (the scale mode's ten million in one would be one transaction); created_at grows
    // with the generated row across them, so ids follow time as when the service appends.
    for (let from = 1; from <= volumes.auditEvents; from += AUDIT_EVENTS_A_STATEMENT) {
      await db.query(
        `insert into audit_events (action, tenant_id, actor_id, actor_name, actor_type, target_id, target_type, product, metadata,
                                   source_ip, user_agent, created_at)
         select c.actions[1 + floor(g.r_action * cardinality(c.actions))::int],
                c.tenant_ids[1 + floor(g.r_tenant * cardinality(c.tenant_ids))::int],
                'user-' || g.actor, 'User ' || g.actor, 'user', 'target-' || (g.i % 100000), 'api_key',
                case when g.r_product < 0.9 then c.products[1 + floor(g.r_product / 0.9 * cardinality(c.products))::int] end,
                jsonb_build_object('seq', g.i, 'note', 'seeded by the benchmark'),
                '10.' || (g.i % 200) || '.' || (g.i % 251) || '.' || (g.i % 241), 'bench-client/1.0',
                now() - interval '${AUDIT_SPAN_DAYS} days' + g.i * (interval '${AUDIT_SPAN_DAYS} days' / $4::int)
           from (select $1::text[] as actions, $2::uuid[] as tenant_ids, $3::text[] as products) c,
                (select i, random() as r_action, random() as r_tenant, random() as r_product, floor(random() * ${ACTORS})::int as actor
                   from generate_series($5::int, $6::int) i) g
          order by g.i`,
        [AUDIT_ACTIONS, tenants.map((t) => t.id), products, volumes.auditEvents, from, Math.min(volumes.auditEvents, from + AUDIT_EVENTS_A_STATEMENT - 1)],
      );
    }
    lap(`${volumes.auditEvents} audit events`);
    await db.query('vacuum analyze tenants, tenant_products, members, member_roles, api_keys, audit_events');
    lap('statistics (vacuum analyze)');
    const bounds = (await db.query<{ min: string; max: string; from: Date; to: Date }>(
      `select min(id) as min, max(id) as max, min(created_at) as from, max(created_at) as to from audit_events`,
    )).rows[0]!;
    return {
      tenants,
      validKeys,
      products,
      actions: AUDIT_ACTIONS,
      actors: Array.from({ length: ACTORS }, (_, a) => `user-${a}`),
      audit: { minId: Number(bounds.min), maxId: Number(bounds.max), from: bounds.from, to: bounds.to },
    };
  } finally {
    await db.end();
  }
}

/** The id range of the audit events in [since, until), for cursors inside a time window. */
export async function auditIdsBetween(databaseUrl: string, windows: { since: Date; until: Date }[]): Promise<{ min: number; max: number }[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const out: { min: number; max: number }[] = [];
    for (const w of windows) {
      const row = (await db.query<{ min: string; max: string }>(
        `select min(id) as min, max(id) as max from audit_events where created_at >= $1 and created_at < $2`,
        [w.since, w.until],
      )).rows[0]!;
      out.push({ min: Number(row.min), max: Number(row.max) });
    }
    return out;
  } finally {
    await db.end();
  }
}

/**
 * Keys that have never been rotated, for the rotation row: a key rotates once (a second rotation is 409), so each
 * run inserts its own, on a tenant of their own so that no other row's reads see them. Answers their ids.
 */
export async function keysToRotate(databaseUrl: string, count: number, runId: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('set synchronous_commit = off');
    const tenant = (await db.query<{ id: string }>(
      `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, 'active', 'customer', 'growth', now(), now()) returning id`,
      [`bench-rotation-${runId}`, `Bench rotation ${runId}`],
    )).rows[0]!.id;
    const keys = Array.from({ length: count }, () => generateApiKey());
    const ids: string[] = [];
    for (let from = 0; from < count; from += 5000) {
      const slice = keys.slice(from, from + 5000);
      const { rows } = await db.query<{ id: string }>(
        `insert into api_keys (id, tenant_id, product, name, scopes, prefix, key_hash, created_by, created_at)
         select gen_random_uuid(), $1, null, 'bench rotation key', '{read}'::text[], pr, decode(h, 'hex'), 'bench', now()
           from unnest($2::text[], $3::text[]) as u(pr, h)
         returning id`,
        [tenant, slice.map((k) => k.prefix), slice.map((k) => k.hash.toString('hex'))],
      );
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  } finally {
    await db.end();
  }
}

/** The tenant of the members row: `count` members (one IT_ADMIN, the others MEMBER), made once and found again on a reused database. */
export async function membersTenant(databaseUrl: string, count: number): Promise<string> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const slug = `bench-members-${count}`;
    const found = (await db.query<{ id: string }>(`select id from tenants where slug = $1`, [slug])).rows[0];
    if (found) return found.id;
    await db.query('begin');
    const tenant = (await db.query<{ id: string }>(
      `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at)
       values (gen_random_uuid(), $1, $2, 'active', 'customer', 'enterprise', now(), now()) returning id`,
      [slug, `Bench ${count} members`],
    )).rows[0]!.id;
    await db.query(
      `insert into members (tenant_id, user_id, email, name, status, source, created_at, updated_at)
       select $1, 'bench-user-' || lpad(i::text, 6, '0'), 'member-' || lpad(i::text, 6, '0') || '@bench.example.com', 'Bench Member ' || i,
              case when i % 10 = 9 then 'inactive' else 'active' end, 'registry', now(), now()
         from generate_series(1, $2::int) i`,
      [tenant, count],
    );
    await db.query(
      `insert into member_roles (tenant_id, user_id, role_id)
       select m.tenant_id, m.user_id, r.id from members m
         join roles r on r.tenant_id is null and r.slug = case when m.user_id = 'bench-user-000001' then 'IT_ADMIN' else 'MEMBER' end
        where m.tenant_id = $1`,
      [tenant],
    );
    await db.query('commit');
    await db.query('analyze members, member_roles');
    return tenant;
  } finally {
    await db.end();
  }
}

/** `count` users of a directory made straight in its table (no effects): what the SCIM filter row looks up. */
/**
 * `count` invitations of the tenant (issue 40's invitations row), a tenth each accepted, revoked and expired, the rest
 * pending, a second apart; made once (a reused database keeps them).
 */
export async function seedInvitations(databaseUrl: string, tenantId: string, count: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows: [held] } = await db.query<{ n: number }>(`select count(*)::int as n from invitations where tenant_id = $1`, [tenantId]);
    if (held!.n >= count) return;
    await db.query(
      `insert into invitations (id, tenant_id, email, roles, state, expires_at, invited_by, send_count, created_at, updated_at)
       select gen_random_uuid(), $1, 'invitee-' || lpad(i::text, 6, '0') || '@bench.example.com', array['MEMBER'],
              case i % 10 when 1 then 'accepted' when 2 then 'revoked' when 3 then 'expired' else 'pending' end,
              now() + interval '7 days', 'bench', 1, now() - make_interval(secs => i), now() - make_interval(secs => i)
         from generate_series(1, $2::int) i`,
      [tenantId, count],
    );
    await db.query('analyze invitations');
  } finally {
    await db.end();
  }
}

export async function seedDirectoryUsers(databaseUrl: string, directoryId: string, count: number): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `insert into directory_users (directory_id, id, user_name, external_id, active, resource, user_id, owned, created_at, updated_at)
       select $1, gen_random_uuid(), 'scim-user-' || i || '@bench.example.com', 'ext-' || i, true,
              jsonb_build_object('userName', 'scim-user-' || i || '@bench.example.com', 'name', jsonb_build_object('givenName', 'Bench', 'familyName', 'User ' || i),
                                 'emails', jsonb_build_array(jsonb_build_object('value', 'scim-user-' || i || '@bench.example.com', 'primary', true)), 'active', true),
              null, false, now(), now()
         from generate_series(1, $2::int) i`,
      [directoryId, count],
    );
    await db.query('analyze directory_users');
  } finally {
    await db.end();
  }
}

/** A directory's users, and how many of them the tenant's actor has made provider users (and members) so far. */
export async function directoryUserLinks(databaseUrl: string, directoryId: string): Promise<{ users: number; linked: number }> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query<{ users: number; linked: number }>('select count(*)::int as users, count(user_id)::int as linked from directory_users where directory_id = $1', [directoryId])).rows[0]!;
  } finally {
    await db.end();
  }
}
