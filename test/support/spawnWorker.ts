import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../platform/serviceNodeFlags.ts';
import { inject } from 'vitest';

/** The real worker entry point as its own process, on the run's database and Temporal server, with the simulated provider. */
export function spawnWorker(taskQueue: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [...SERVICE_NODE_FLAGS, resolve(import.meta.dirname, '../../worker/main.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: inject('runtimeDatabaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_PAYLOAD_KEYS: inject('temporalPayloadKeys'),
      REGISTRY_SECRET_KEYS: inject('registrySecretKeys'),
      TEMPORAL_TASK_QUEUE: taskQueue,
      IDP_ADMIN_URL: '',
      LOG_LEVEL: 'warn',
      WORKER_METRICS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
