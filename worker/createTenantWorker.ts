import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Orm } from '../store/orm.ts';
import type { IdentityProvider } from '../activities/idp/identityProvider.ts';
import { createTenantActivities } from '../activities/tenantActivities.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Bundles the workflow code once; tests and the all-in-one process reuse it across workers. */
export const bundleWorkflows = (): Promise<WorkflowBundleWithSourceMap> => bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger });

const quietBundlerLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

export interface TenantWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  orm: Orm;
  idp: IdentityProvider;
  workflowBundle?: WorkflowBundleWithSourceMap;
}

/** A worker for the tenant actors: deterministic workflow code in its sandbox, side effects as activities. */
export async function createTenantWorker(options: TenantWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : { workflowsPath }),
    activities: createTenantActivities({ orm: options.orm, idp: options.idp }),
  });
  return { worker, connection };
}
