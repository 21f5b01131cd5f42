import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedScratchDatabase } from '../../support/migratedScratchDatabase.ts';
import type { ScratchDatabase } from '../../support/scratchDatabase.ts';

/**
 * A database of this file's own, migrated to the end, holding what a registry of many small tenants holds, 3,000
 * tenants of one member each, analyzed; then one tenant grows to 3,000 members, as a large customer's first directory
 * sync makes them, before the next ANALYZE. ANALYZE reads every row of a table this small, so the statistics, and the
 * plans below, are the same on every run.
 */
const TENANTS = 3_000;
const LARGE_TENANT = '00000000-0000-4000-8000-00000000000a';
let scratch: ScratchDatabase;
let owner: pg.Client;

/** The plan PostgreSQL keeps for a prepared statement whatever its parameters: what pg's named statements and RI checks run. */
async function genericPlan(text: string, values: unknown[]): Promise<string> {
  await owner.query('set plan_cache_mode = force_generic_plan');
  await owner.query('deallocate all');
  await owner.query(`prepare probe as ${text}`);
  const { rows } = await owner.query<{ 'QUERY PLAN': string }>(`explain (costs off) execute probe(${values.map((value) => `'${String(value)}'`).join(', ')})`);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** The statement of the foreign key check of member_roles(tenant_id, user_id), as PostgreSQL's RI trigger writes it. */
const FOREIGN_KEY_CHECK = 'select 1 from only public.members x where tenant_id operator(pg_catalog.=) $1::uuid and user_id operator(pg_catalog.=) $2::text for key share of x';

const largeTenantGrows = () =>
  owner.query(
    `insert into members (tenant_id, user_id, email, name, status, source)
     select $1, 'member-' || i, 'member-' || i || '@large.example', 'Member ' || i, 'active', 'registry' from generate_series(1, $2::int) i`,
    [LARGE_TENANT, TENANTS],
  );

/** The statistics taken while every tenant was small, under the column's estimate as `setting` leaves it. */
async function analyzedBeforeTheLargeTenant(setting: string): Promise<void> {
  await owner.query('delete from members where tenant_id = $1', [LARGE_TENANT]);
  await owner.query(`alter table members alter column tenant_id ${setting}`);
  await owner.query('analyze members');
  await largeTenantGrows();
}

beforeAll(async () => {
  ({ scratch, owner } = await migratedScratchDatabase('members_tenant_distinct_migration'));
  await owner.query(
    `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at)
     select case when i = 0 then $1::uuid else gen_random_uuid() end, 'distinct-' || i, 'Tenant ' || i, 'active', 'customer', 'growth', now(), now()
       from generate_series(0, $2::int) i`,
    [LARGE_TENANT, TENANTS],
  );
  await owner.query(
    `insert into members (tenant_id, user_id, email, name, status, source)
     select id, 'admin-' || slug, 'admin@' || slug || '.example', 'Admin ' || slug, 'active', 'provisioning' from tenants where id <> $1`,
    [LARGE_TENANT],
  );
  await owner.query('analyze members');
  await largeTenantGrows();
}, 60_000);
afterAll(async () => {
  await owner?.end();
  await scratch?.drop();
});

describe('Migration20261211000049MembersTenantDistinct', () => {
  it("plans a member's look-up and member_roles' foreign key check by the user id, never as a walk of the large tenant's members", async () => {
    for (const text of [FOREIGN_KEY_CHECK, 'select user_id from members m where m.tenant_id = $1 and m.user_id = $2']) {
      const plan = await genericPlan(text, [LARGE_TENANT, 'member-42']);
      expect(plan).toMatch(/Index Cond: .*user_id = \$2/);
      expect(plan).not.toMatch(/Index Cond: \(tenant_id = \$1\)\n/);
    }
  });

  it('is what decides it: under the estimate ANALYZE makes of many small tenants, the look-up walks the tenant and filters each member', async () => {
    await analyzedBeforeTheLargeTenant('reset (n_distinct)');
    try {
      const plan = await genericPlan(FOREIGN_KEY_CHECK, [LARGE_TENANT, 'member-42']);
      expect(plan).toMatch(/Index Cond: \(tenant_id = \$1\)\n.*Filter: \(user_id = \$2\)/);
    } finally {
      await analyzedBeforeTheLargeTenant('set (n_distinct = -0.05)');
    }
  });
});
