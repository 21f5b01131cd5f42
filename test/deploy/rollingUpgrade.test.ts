import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../platform/serviceNodeFlags.ts';
import { spawnApi, type ApiProcess } from '../support/spawnApi.ts';

/**
 * docs/operators.md, "Upgrading", as written, from the previous commit (HEAD~1, the release before this one) to this
 * tree: the old release migrated and serving; requests sent without pause while the new release's migration job runs
 * and its API starts beside the old one; the old one taken out of rotation, then stopped. Not one request fails, and
 * the new API serves what the old one wrote.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

const withDatabase = (url: string, database: string) => {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
};

/** `npm run migrate` of a release's tree: its migrations applied as the owner, the runtime role granted. */
const migrateWith = (tree: string, ownerUrl: string, runtimeUrl: string) =>
  run(process.execPath, [...SERVICE_NODE_FLAGS, join(tree, 'scripts', 'migrate.ts')], {
    cwd: tree,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_MIGRATION_URL: ownerUrl, DATABASE_URL: runtimeUrl, LOG_LEVEL: 'info' },
  });

interface Outcome {
  api: string;
  phase: string;
  request: string;
  status: number | string;
}

describe('an upgrade from the previous commit', () => {
  it('an old API beside a new one while the new release migrates and starts: every request succeeds, and the new API reads what the old one wrote', { timeout: 300_000 }, async () => {
    // The previous release's tree, sharing this tree's installed packages.
    const old = await mkdtemp(join(tmpdir(), 'tenant-registry-previous-'));
    cleanups.push(() => rm(old, { recursive: true, force: true }));
    await run('sh', ['-c', `git -C "$0" archive HEAD~1 | tar -x -C "$1"`, root, old]);
    await symlink(await realpath(join(root, 'node_modules')), join(old, 'node_modules'));

    const owner = inject('databaseUrl');
    const runtime = new URL(inject('runtimeDatabaseUrl'));
    const database = `upgrade_${process.pid}`;
    const admin = new pg.Client({ connectionString: withDatabase(owner, 'postgres') });
    await admin.connect();
    await admin.query(`create database ${database}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    });
    const ownerUrl = withDatabase(owner, database);
    const runtimeUrl = withDatabase(runtime.toString(), database);
    await migrateWith(old, ownerUrl, runtimeUrl);
    const env = { DATABASE_URL: runtimeUrl, TEMPORAL_TASK_QUEUE: `upgrade-${process.pid}` };
    const oldApi = await spawnApi(env, old);
    children.push(oldApi.child);

    // Requests without pause, four at a time, to the APIs in rotation, as a load balancer sends them.
    const rotation: { name: string; api: ApiProcess }[] = [{ name: 'old', api: oldApi }];
    let phase = 'before the migration';
    const outcomes: Outcome[] = [];
    const tenants: { id: string; by: string }[] = [];
    let stop = false;
    let turn = 0;
    const one = async () => {
      const { name, api } = rotation[turn++ % rotation.length]!;
      const kind = turn % 4;
      const known = tenants[turn % Math.max(tenants.length, 1)];
      const [method, path, body] =
        kind === 0
          ? (['POST', '/v1/tenants', { slug: `upgrade-${process.pid}-${turn}`, name: `Upgrade ${turn}` }] as const)
          : kind === 1 && known
            ? (['GET', `/v1/tenants/${known.id}`, undefined] as const)
            : kind === 2
              ? (['POST', '/v1/audit', { action: 'upgrade.test', actor_id: 'driver', metadata: { turn } }] as const)
              : (['GET', '/v1/tenants?limit=5', undefined] as const);
      const at = phase;
      try {
        const response = await fetch(`${api.base}${path}`, {
          method,
          headers: body ? { 'content-type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(10_000),
        });
        const answer = (await response.json()) as { tenant?: { id: string } };
        if (answer.tenant?.id && method === 'POST') tenants.push({ id: answer.tenant.id, by: name });
        outcomes.push({ api: name, phase: at, request: `${method} ${path}`, status: response.status });
      } catch (error) {
        outcomes.push({ api: name, phase: at, request: `${method} ${path}`, status: (error as Error).message });
      }
    };
    const drivers = Array.from({ length: 4 }, async () => {
      while (!stop) await one();
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      await pause(1000);
      phase = 'during the migration';
      await migrateWith(root, ownerUrl, runtimeUrl);
      phase = 'while the new API starts';
      const newApi = await spawnApi(env);
      children.push(newApi.child);
      rotation.push({ name: 'new', api: newApi });
      phase = 'both in rotation';
      await pause(3000);
      // Out of rotation first, then stopped: what it still runs drains (SHUTDOWN_GRACE_MS).
      rotation.splice(0, 1);
      phase = 'the old one stopping';
      await pause(500);
      oldApi.child.kill('SIGTERM');
      await new Promise((r) => oldApi.child.once('exit', r));
      phase = 'the new one alone';
      await pause(1000);
      stop = true;
      await Promise.all(drivers);

      expect(outcomes.filter((o) => typeof o.status !== 'number' || o.status >= 300)).toEqual([]);
      const served = (api: string, at: string) => outcomes.filter((o) => o.api === api && o.phase === at).length;
      expect(served('old', 'during the migration') + served('old', 'while the new API starts'), 'the old API served while the new release migrated and started').toBeGreaterThan(0);
      expect(served('new', 'both in rotation')).toBeGreaterThan(0);
      expect(served('new', 'the new one alone')).toBeGreaterThan(0);
      // What the old release wrote, read by the new one.
      const byOld = tenants.filter((t) => t.by === 'old').slice(0, 5);
      expect(byOld.length).toBeGreaterThan(0);
      for (const { id } of byOld) expect((await fetch(`${newApi.base}/v1/tenants/${id}`)).status).toBe(200);
    } finally {
      stop = true;
      await Promise.all(drivers);
    }
  });
});
