import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from '../support/eventually.ts';

const root = resolve(import.meta.dirname, '../..');
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

/** An entry point as its own process with only `env`; its output (JSON log lines, errors) is collected. */
function run(entry: string, env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [resolve(root, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', METRICS_PORT: '0', WORKER_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, exited: new Promise((done) => child.once('exit', done)) };
}

/** The run's database URLs with another database name. */
function onDatabase(url: string, name: string): string {
  const moved = new URL(url);
  moved.pathname = `/${name}`;
  return moved.toString();
}

const serviceEnv = () => ({
  TEMPORAL_ADDRESS: inject('temporalAddress'),
  TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
  REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
  IDP_ADMIN_URL: '',
  OUTBOX_RELAY_INTERVAL_MS: String(24 * 3600_000),
  AUDIT_STREAM_RECONCILE_INTERVAL_MS: String(24 * 3600_000),
});

describe('the API and the worker hold only the runtime role’s connection', () => {
  it.each(['api/main.ts', 'worker/main.ts'])('%s refuses to start with DATABASE_MIGRATION_URL, naming it, before reaching PostgreSQL', async (entry) => {
    const { exited, output } = run(entry, {
      ...serviceEnv(),
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      DATABASE_MIGRATION_URL: inject('databaseUrl'),
      TEMPORAL_TASK_QUEUE: `refused-${process.pid}`,
      PORT: String(await freePort()),
    });
    expect(await exited).not.toBe(0);
    expect(output()).toContain("DATABASE_MIGRATION_URL is set: the API and the worker must not hold the schema owner's connection");
  });

  it('on a database not migrated the API waits, saying to run npm run migrate (/readyz 503), and serves once the migration step has run as the owner', async () => {
    const name = `unmigrated_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const runtimeUrl = onDatabase(inject('runtimeDatabaseUrl'), name);
      const port = await freePort();
      const api = run('api/main.ts', { ...serviceEnv(), DATABASE_URL: runtimeUrl, TEMPORAL_TASK_QUEUE: `unmigrated-${port}`, PORT: String(port), HOST: '127.0.0.1' });
      const base = `http://127.0.0.1:${port}`;
      await eventually(async () => api.output().includes('schema not migrated: run npm run migrate'), 30_000, 'the wait logged');
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
      expect(api.child.exitCode).toBeNull();

      const migration = run('scripts/migrate.ts', { DATABASE_URL: runtimeUrl, DATABASE_MIGRATION_URL: onDatabase(inject('databaseUrl'), name) });
      expect(await migration.exited, migration.output()).toBe(0);
      expect(migration.output()).toContain('schema migrated');

      await eventually(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'ready once migrated');
      expect((await fetch(`${base}/v1/tenants?limit=1`)).status).toBe(200);
      expect(api.output()).not.toContain('owns the schema');
      api.child.kill('SIGTERM');
      await api.exited;
    } finally {
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
