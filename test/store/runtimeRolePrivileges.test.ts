import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

/** The role the service runs as (granted by migrate → grantRuntimePrivileges), connected to directly; and the owner. */
let runtime: pg.Client;
let owner: pg.Client;
beforeAll(async () => {
  runtime = new pg.Client({ connectionString: inject('runtimeDatabaseUrl') });
  owner = new pg.Client({ connectionString: inject('databaseUrl') });
  await Promise.all([runtime.connect(), owner.connect()]);
});
afterAll(() => Promise.all([runtime?.end(), owner?.end()]));

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

  it("cannot delete audit events by setting retention's switch itself, nor write the chain's kept links", async () => {
    await runtime.query(`select set_config('registry.retention_purge', 'on', false)`);
    try {
      expect((await failure(`delete from audit_events where id = (select max(id) from audit_events)`))?.message).toMatch(/permission denied for table audit_events/);
    } finally {
      await runtime.query(`select set_config('registry.retention_purge', 'off', false)`);
    }
    expect((await failure(`insert into audit_chain_links (id, previous_hash) values (1, repeat('0', 64))`))?.message).toMatch(/permission denied for table audit_chain_links/);
  });

  it('cannot rewrite the migration history', async () => {
    expect((await failure(`delete from mikro_orm_migrations`))?.code).toBe('42501');
  });

  it("cannot rewrite a role's grants in place: they are only added and taken away", async () => {
    expect((await failure(`update role_permissions set permission = 'audit:read' where false`))?.message).toMatch(/permission denied for table role_permissions/);
  });

  it('cannot switch the triggers off for its session (session_replication_role = replica)', async () => {
    expect((await failure('set session_replication_role = replica'))?.code).toBe('42501');
  });

  it('cannot create functions: not in the schema, not in a schema of its own, not in its temporary schema', async () => {
    const body = `returns int language sql as 'select 1'`;
    expect((await failure(`create function public.shadow() ${body}`))?.message).toMatch(/permission denied for schema public/);
    expect((await failure('create schema shadow'))?.message).toMatch(/permission denied for database/);
    expect((await failure(`create function pg_temp.shadow() ${body}`))?.message).toMatch(/permission denied to create temporary tables/);
  });
});

/** The running values the chain trigger keeps between the rows of a statement must not be the session's to set. */
describe('the audit chain, appended to by the runtime role', () => {
  /** In a transaction rolled back at the end: a forged chain must not stay behind for the other test files. */
  async function rolledBack<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
    await client.query('begin');
    try {
      return await work();
    } finally {
      await client.query('rollback');
    }
  }
  /** Whether the event's hash follows from its predecessor's, recomputed on the owner's search path. */
  const chainedFromPredecessor = async (client: pg.Client, id: string) =>
    (
      await client.query(
        `select e.hash = public.audit_event_hash((select p.hash from public.audit_events p where p.id < e.id order by p.id desc limit 1), e) as intact
           from public.audit_events e where e.id = $1`,
        [id],
      )
    ).rows[0].intact as boolean;

  it('ignores a running hash and id set in the session: the event chains from the true head, and an empty append moves nothing', async () => {
    await rolledBack(runtime, async () => {
      await runtime.query(`select set_config('audit.chain_hash', repeat('f', 64), true), set_config('audit.chain_id', '1', true)`);
      const { rows } = await runtime.query(`insert into audit_events (action) values ('privileges.forged_chain') returning id, hash`);
      expect(await chainedFromPredecessor(runtime, rows[0].id)).toBe(true);
      const head = (await runtime.query('select last_id, last_hash from audit_chain_head')).rows[0];
      expect(head).toEqual({ last_id: rows[0].id, last_hash: rows[0].hash });
      await runtime.query(`select set_config('audit.chain_hash', repeat('f', 64), true), set_config('audit.chain_id', '1', true)`);
      await runtime.query(`insert into audit_events (action) select 'privileges.nothing' where false`);
      expect((await runtime.query('select last_id, last_hash from audit_chain_head')).rows[0]).toEqual(head);
    });
  });

  it('the owner’s trigger calls none of the runtime’s functions, even from a schema of its own first on its search path', async () => {
    // A runtime role with a schema of its own (a "$user" schema an operator created, say) shadows pg_catalog's
    // sha256 for its own session; the trigger, running as the owner, must resolve its names on its own path.
    const schema = `runtime_shadow_${process.pid}`;
    const runtimeRole = new URL(inject('runtimeDatabaseUrl')).username;
    await owner.query(`create schema ${schema} authorization ${runtimeRole}`);
    // A connection of its own: one that has chained before keeps the trigger's plans made on the usual path.
    const shadowed = new pg.Client({ connectionString: inject('runtimeDatabaseUrl') });
    await shadowed.connect();
    try {
      await shadowed.query(`create table ${schema}.calls (caller text)`);
      await shadowed.query(`grant insert on ${schema}.calls to public`);
      await shadowed.query(
        `create function ${schema}.sha256(bytea) returns bytea language sql as
           'insert into ${schema}.calls values (current_user); select pg_catalog.sha256($1)'`,
      );
      await rolledBack(shadowed, async () => {
        await shadowed.query(`set local search_path = ${schema}, pg_catalog, public`);
        const { rows } = await shadowed.query(`insert into audit_events (action) values ('privileges.shadowed') returning id`);
        await shadowed.query('set local search_path to default');
        expect(await chainedFromPredecessor(shadowed, rows[0].id)).toBe(true);
        expect((await shadowed.query(`select caller from ${schema}.calls`)).rows).toEqual([]);
      });
    } finally {
      await shadowed.end();
      await owner.query(`drop schema ${schema} cascade`);
    }
  });
});
