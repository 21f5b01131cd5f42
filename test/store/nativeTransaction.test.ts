import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { nativeTransaction } from '../../store/nativeTransaction.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import type { Sql } from '../../store/sql.ts';

// The runtime role on a pool of one connection: a connection not handed back would hang the next transaction.
let orm: Orm;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
});
afterAll(() => orm.close());

const insertTenant = (sql: Sql, slug: string) =>
  sql.query(`insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values ($1, $2, $2, 'active', 'customer', 'starter', now(), now())`, [
    randomUUID(),
    slug,
  ]);
const tenantsWithSlug = async (slug: string) =>
  (await orm.em.fork().execute<{ slug: string }[]>('select slug from tenants where slug = ?', [slug])).length;

describe('nativeTransaction', () => {
  it('commits every statement of the work when it resolves, and answers what it answered', async () => {
    const slugs = [`ntx-${randomUUID().slice(0, 8)}`, `ntx-${randomUUID().slice(0, 8)}`];
    const answer = await nativeTransaction(orm, async (sql) => {
      for (const slug of slugs) await insertTenant(sql, slug);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await tenantsWithSlug(slugs[0]!)).toBe(1);
    expect(await tenantsWithSlug(slugs[1]!)).toBe(1);
  });

  it('rolls back every statement when the work throws, rethrows, and hands the connection back usable', async () => {
    const slug = `ntx-${randomUUID().slice(0, 8)}`;
    await expect(
      nativeTransaction(orm, async (sql) => {
        await insertTenant(sql, slug);
        throw new Error('decided against it');
      }),
    ).rejects.toThrow('decided against it');
    expect(await tenantsWithSlug(slug)).toBe(0);
    await expect(nativeTransaction(orm, async (sql) => (await sql.query<{ one: number }>('select 1 as one')).rows[0]!.one)).resolves.toBe(1);
  });

  it('rolls back on a statement PostgreSQL refuses, with its error, and the next transaction runs on the same pool', async () => {
    const slug = `ntx-${randomUUID().slice(0, 8)}`;
    const other = `ntx-${randomUUID().slice(0, 8)}`;
    const refused = nativeTransaction(orm, async (sql) => {
      await insertTenant(sql, other);
      await insertTenant(sql, slug);
      await insertTenant(sql, slug);
    });
    await expect(refused).rejects.toMatchObject({ code: '23505' });
    expect(await tenantsWithSlug(other)).toBe(0);
    await nativeTransaction(orm, (sql) => insertTenant(sql, slug));
    expect(await tenantsWithSlug(slug)).toBe(1);
  });
});
