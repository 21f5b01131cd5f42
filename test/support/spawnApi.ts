import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../platform/serviceNodeFlags.ts';
import { inject } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { eventually } from './eventually.ts';

export interface ApiProcess {
  base: string;
  port: number;
  child: ChildProcess;
}

/**
 * The real API entry point as its own process on the run's database and Temporal server, ready when this resolves.
 * Its outbox relay and stream reconciler are idle: other test files' hand-offs are theirs to deliver. `root`: the tree
 * whose entry point runs (another release's, for an upgrade), this one by default.
 */
export async function spawnApi(env: Record<string, string> = {}, root = resolve(import.meta.dirname, '../..')): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, resolve(root, 'api/main.ts')], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
      REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
      TEMPORAL_TASK_QUEUE: `api-${port}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      OUTBOX_RELAY_INTERVAL_MS: String(24 * 3600_000),
      AUDIT_STREAM_RECONCILE_INTERVAL_MS: String(24 * 3600_000),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, `API on ${port}`);
  return { base, port, child };
}
