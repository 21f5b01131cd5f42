/** A Python tool the conformance runs use, pinned, installed from PyPI into .tools/<name> on first use. */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/**
 * The folder the tool's packages are in (its PYTHONPATH), with `requirement` installed there unless `marker` (a path
 * inside that folder) already exists.
 */
export async function pinnedPythonTool(name: string, requirement: string, marker: string, log: (message: string) => void): Promise<string> {
  const toolDir = join(root, '.tools', name);
  if (await access(join(toolDir, marker), constants.R_OK).then(() => true, () => false)) return toolDir;
  log(`installing ${requirement} from PyPI into .tools/${name}`);
  await run(process.env.PYTHON ?? 'python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', toolDir, requirement], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return toolDir;
}
