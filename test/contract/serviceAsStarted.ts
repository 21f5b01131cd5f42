/**
 * The service as `npm start` runs it (embedded PostgreSQL, Temporal dev server, simulated identity provider), on ports
 * and a data folder of its own under .data/contract-<name>, for the conformance runs of test/contract/.
 */
import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { freePort } from '../../platform/freePort.ts';

const root = resolve(import.meta.dirname, '../..');

async function waitForReady(url: string, child: ReturnType<typeof spawn>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if ((await fetch(url).catch(() => undefined))?.status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the service was not ready within ${timeoutMs} ms`);
}

/** Runs `body` against the started service with `env` added; stops it (its whole process group) at the end. */
export async function withServiceAsStarted<T>(name: string, env: Record<string, string>, body: (baseUrl: string) => Promise<T>): Promise<T> {
  const dataDir = join(root, '.data', `contract-${name}`);
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      // Required with AUTH_ENABLED: the SCIM base URLs and portal links the runs follow.
      PUBLIC_BASE_URL: baseUrl,
      ...env,
    },
  });
  try {
    await waitForReady(`${baseUrl}/readyz`, child, 180_000);
    return await body(baseUrl);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 3000));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // stopped in time
    }
  }
}
