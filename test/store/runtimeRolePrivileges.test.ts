import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

/** The role the service runs as (granted by migrate → grantRuntimePrivileges), connected to directly. */
let runtime: pg.Client;
beforeAll(async () => {
  runtime = new pg.Client({ connectionString: inject('runtimeDatabaseUrl') });
  await runtime.connect();
});
afterAll(() => runtime?.end());

const failure = (text: string) => runtime.query(text).then(() => undefined, (err: Error & { code?: string }) => err);

describe('the runtime role', () => {
  it('appends to and reads the audit log, chained by the owner’s trigger', async () => {
    const { rows } = await runtime.query(`insert into audit_events (action) values ('privileges.append') returning id, hash`);
    expect(rows[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await runtime.query('select count(*) from audit_events where id = $1', [rows[0].id])).rows[0].count).toBe('1');
  });

  it.each([
    ['UPDATE', `update audit_events set action = 'forged' where id = (select max(id) from audit_events)`],
    ['DELETE', `delete from audit_events where id = (select max(id) from audit_events)`],
    ['TRUNCATE', 'truncate audit_events'],
  ])('cannot %s audit events: permission denied by privileges, before any trigger runs', async (_verb, statement) => {
    const err = await failure(statement);
    expect(err?.code).toBe('42501');
    expect(err?.message).toMatch(/permission denied for table audit_events/);
  });

  it('cannot disable the append-only trigger, nor drop it: it does not own the table', async () => {
    for (const statement of [
      'alter table audit_events disable trigger audit_events_append_only',
      'alter table audit_events disable trigger all',
      'drop trigger audit_events_append_only on audit_events',
    ]) {
      const err = await failure(statement);
      expect(err?.code, statement).toBe('42501');
      expect(err?.message).toMatch(/must be owner of (table|relation) audit_events/);
    }
  });

  it('cannot move the chain head, draw audit ids, or create objects in the schema', async () => {
    expect((await failure(`update audit_chain_head set last_hash = repeat('0', 64)`))?.message).toMatch(/permission denied for table audit_chain_head/);
    expect((await failure(`select nextval('audit_event_ids')`))?.message).toMatch(/permission denied for sequence audit_event_ids/);
    expect((await failure('create table shadow (id int)'))?.message).toMatch(/permission denied for schema public/);
  });

  it('cannot rewrite the migration history', async () => {
    expect((await failure(`delete from mikro_orm_migrations`))?.code).toBe('42501');
  });
});
