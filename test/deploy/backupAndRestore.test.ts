import { execFile, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { EMBEDDED_RUNTIME_ROLE } from '../../platform/database.ts';
import { startEmbeddedPostgres, type RunningPostgres } from '../../platform/embeddedPostgres.ts';
import { freePort } from '../../platform/freePort.ts';
import { createLogger } from '../../platform/logger.ts';
import { migrate } from '../../store/orm.ts';
import { eventually } from '../support/eventually.ts';
import { postgresToolsBin } from '../support/postgresClientTools.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';
import { spawnWorker } from '../support/spawnWorker.ts';

/**
 * docs/operators.md, "Backup and restore", as written: pg_dump of the registry's database as its owner, pg_restore into
 * an empty database of a fresh cluster whose runtime role was made first, then the API and the worker pointed at it,
 * the same Temporal and the same keys. The audit chain checks out as it did, and an actor that was in the middle of
 * provisioning when the backup was taken completes against the restored rows.
 */
const run = promisify(execFile);
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const withDatabase = (url: string, database: string, role?: { name: string; password: string }) => {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  if (role) {
    copy.username = role.name;
    copy.password = role.password;
  }
  return copy.toString();
};

async function json(api: ApiProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.base}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

describe('backup and restore', () => {
  it('pg_dump and pg_restore into a fresh cluster: the audit chain checks out as before, and an actor mid-provisioning completes', { timeout: 300_000 }, async () => {
    const bin = await postgresToolsBin();
    // The deployment backed up: a database of its own on the run's server, migrated as a deployment's job does.
    const owner = inject('databaseUrl');
    const runtimeRole = new URL(inject('runtimeDatabaseUrl'));
    const source = `backup_source_${process.pid}`;
    const admin = new pg.Client({ connectionString: withDatabase(owner, 'postgres') });
    await admin.connect();
    await admin.query(`create database ${source}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${source} with (force)`);
      await admin.end();
    });
    const sourceOwner = withDatabase(owner, source);
    const sourceRuntime = withDatabase(owner, source, { name: decodeURIComponent(runtimeRole.username), password: decodeURIComponent(runtimeRole.password) });
    await migrate(sourceOwner, sourceRuntime);

    // Its API hands a tenant's provisioning to the actor, but no worker polls the task queue yet: the tenant is made,
    // its invite not sent, when the backup is taken.
    const taskQueue = `backup-${process.pid}-${Date.now()}`;
    const before = await spawnApi({ DATABASE_URL: sourceRuntime, TEMPORAL_TASK_QUEUE: taskQueue, PROVISIONING_WAIT_MS: '500' });
    children.push(before.child);
    const created = await json(before, 'POST', '/v1/tenants', { slug: `backup-${process.pid}`, name: 'Backed up', admin_email: `admin@backup-${process.pid}.example` });
    expect(created.status).toBe(201);
    expect(created.body.invite_url).toBeUndefined();
    const tenantId = created.body.tenant.id as string;
    for (let i = 0; i < 5; i += 1) expect((await json(before, 'POST', '/v1/audit', { action: 'backup.test', actor_id: 'operator', tenant_id: tenantId, metadata: { i } })).status).toBe(201);
    const chain = await json(before, 'GET', '/v1/audit/integrity');
    expect(chain.body).toMatchObject({ ok: true });

    const work = await mkdtemp(join(tmpdir(), 'tenant-registry-backup-'));
    // Traversable by the cluster's own user (initdb runs as `postgres` when the tests run as root).
    await chmod(work, 0o755);
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const dump = join(work, 'tenant_registry.dump');
    await run(join(bin, 'pg_dump'), ['--format=custom', `--file=${dump}`, `--dbname=${sourceOwner}`]);
    // The deployment's database is gone; the backup is all there is.
    before.child.kill('SIGTERM');
    await new Promise((r) => before.child.once('exit', r));
    await admin.query(`drop database ${source} with (force)`);

    // A fresh cluster: the runtime role first (roles are the cluster's, not in the dump), an empty database, the dump.
    const fresh: RunningPostgres = await startEmbeddedPostgres(join(work, 'cluster'), await freePort(), createLogger('warn', 'restore-postgres'), 'restored');
    cleanups.push(() => fresh.stop());
    await fresh.ensureLoginRole(EMBEDDED_RUNTIME_ROLE);
    await fresh.createDatabase('tenant_registry');
    await run(join(bin, 'pg_restore'), ['--exit-on-error', `--dbname=${fresh.url('tenant_registry')}`, dump]);
    const restoredRuntime = fresh.url('tenant_registry', EMBEDDED_RUNTIME_ROLE);

    // The API and the worker on the restored database, the same Temporal, task queue and keys.
    const after = await spawnApi({ DATABASE_URL: restoredRuntime, TEMPORAL_TASK_QUEUE: taskQueue });
    children.push(after.child);
    children.push(spawnWorker(taskQueue, { DATABASE_URL: restoredRuntime }));

    const restoredChain = await json(after, 'GET', `/v1/audit/integrity?to_id=${chain.body.last_id}`);
    expect(restoredChain.body).toEqual(chain.body);
    // The actor provisions the tenant the backup holds: its invite is sent and audited in the restored log.
    await eventually(
      async () => (await json(after, 'GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items.length === 1,
      60_000,
      'the restored tenant provisioned',
    );
    const invitations = await json(after, 'GET', `/v1/tenants/${tenantId}/invitations`);
    expect(invitations.body.items).toMatchObject([{ email: `admin@backup-${process.pid}.example`, state: 'pending' }]);
    expect((await json(after, 'GET', '/v1/audit/integrity')).body).toMatchObject({ ok: true });
  });
});
