import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { toTenant } from '../../domain/tenants/tenantResponse.ts';
import { AWKWARD_TEXT } from '../support/awkwardText.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresTenantRepository } from '../../store/postgresTenantRepository.ts';

let orm: Orm;
let tenants: PostgresTenantRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  tenants = new PostgresTenantRepository(orm);
});
afterAll(() => orm.close());


const insert = (values: Record<string, unknown>) => {
  const columns = Object.keys(values);
  return orm.em.fork().execute(
    `insert into tenants (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    Object.values(values),
  );
};

describe('TENANT_JSON_SQL: the tenants of the listing written by PostgreSQL', () => {
  it("writes every tenant as JSON.stringify(toTenant(record)) writes it: same bytes, nulls, defaults, omitted empty texts, cut microseconds", async () => {
    const slugBase = `json-${Date.now().toString(36)}`;
    const shapes: Record<string, unknown>[] = [
      { name: AWKWARD_TEXT, status: 'active', kind: 'customer', plan: 'enterprise', created_at: '2026-01-02 03:04:05.999999+00', updated_at: '2026-01-02 03:04:05+00' },
      {
        name: 'All set', status: 'trial', kind: 'demo', plan: AWKWARD_TEXT, trial_ends_at: '2027-02-28 23:59:59.9995+00', contract_start: '2026-01-01', contract_end: '2028-12-31',
        erp_customer_id: 'ERP "1"', payment_cust_id: 'cus_\\1', sales_owner: AWKWARD_TEXT, settings: JSON.stringify({ default_role: AWKWARD_TEXT, invitation_expiry_days: 30 }),
        created_at: '1999-12-31 23:59:59.000001+00', updated_at: '2026-11-27 00:00:00.1+00',
      },
      { name: 'Empty texts', status: 'frozen', kind: 'demo', plan: 'p', erp_customer_id: '', payment_cust_id: '', sales_owner: '', settings: JSON.stringify({ default_role: 'billing' }), created_at: '2026-06-30 12:00:00.123+00', updated_at: '2026-06-30 12:00:00.123456+00' },
      { name: 'n', status: 'archived', kind: 'customer', plan: 'p', settings: JSON.stringify({ invitation_expiry_days: 1 }), created_at: '2026-06-30 12:00:00+00', updated_at: '2026-06-30 12:00:00+00' },
      { name: 'Policies', status: 'active', kind: 'customer', plan: 'p', settings: JSON.stringify({ sign_in: { mfa: 'required', session_max_hours: 12 }, audit_retention_days: 90 }), created_at: '2026-06-30 12:00:00+00', updated_at: '2026-06-30 12:00:00+00' },
      { name: 'Strict', status: 'active', kind: 'customer', plan: 'p', settings: JSON.stringify({ sign_in: { require_sso: true } }), created_at: '2026-06-30 12:00:00+00', updated_at: '2026-06-30 12:00:00+00' },
    ];
    const ids: string[] = [];
    for (const [i, shape] of shapes.entries()) {
      const id = randomUUID();
      ids.push(id);
      await insert({ id, slug: `${slugBase}-${i}`, ...shape });
    }
    const documents = await tenants.documents([...ids, randomUUID(), 'not-a-uuid']);
    expect(documents.map((d) => d.id).sort()).toEqual([...ids].sort());
    for (const { id, slug, json } of documents) {
      const record = await tenants.find({ by: 'id', id });
      expect(slug).toBe(record!.slug);
      expect(json).toBe(JSON.stringify(toTenant(record!)));
      expect(JSON.parse(json)).toEqual(toTenant(record!));
    }
  });
});
