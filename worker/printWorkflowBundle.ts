import { bundleWorkflows } from './createTenantWorker.ts';

/**
 * Writes the workflow bundle to stdout. The service runs this as a short-lived child process (see
 * bundleWorkflowsInChildProcess): webpack's memory then never lands in the long-running worker's heap.
 */
process.stdout.write((await bundleWorkflows({ tracing: process.argv.includes('--tracing') })).code, () => process.exit(0));
