import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../platform/embeddedPostgres.ts';
import { createLogger, type Logger } from '../../platform/logger.ts';
import { migrate } from '../../store/orm.ts';
import { EMBEDDED_RUNTIME_ROLE as RUNTIME_ROLE } from '../../platform/database.ts';
import { DevServerExited, startTemporalDevServer, type RunningDevServer } from '../../platform/temporalDevServer.ts';
import { bundleWorkflows } from '../../worker/createTenantWorker.ts';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { freePort } from '../../platform/freePort.ts';
import { dnsmasqPath } from './dnsServer.ts';
import { chromiumInstalled } from './chromium.ts';
import { formatPayloadKeys, newPayloadKey } from '../../platform/temporal/payloadKeys.ts';
import { checkAppendedEvents } from './appendedEventsCheck.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The schema's owner: what tests inspect (and tamper) with. */
    databaseUrl: string;
    /** The runtime role the service under test runs as, with only the privileges it is granted. */
    runtimeDatabaseUrl: string;
    temporalAddress: string;
    /** TEMPORAL_PAYLOAD_KEYS of every client and worker of the run. */
    temporalPayloadKeys: string;
    /** REGISTRY_SECRET_KEYS of every API and worker of the run. */
    registrySecretKeys: string;
    workflowBundlePath: string;
  }
}

/**
 * One real PostgreSQL for the run: TEST_DATABASE_URL when given, else an embedded cluster in .data/test.
 * Each run gets a fresh database, migrated the way the service migrates, so runs never see each other's rows.
 */
export default async function setup(project: TestProject) {
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'test-postgres');
  // The domain tests' DNS server: installed here, once, rather than by files running side by side.
  await dnsmasqPath();
  // The admin portal's browser tests' Chromium: likewise.
  await chromiumInstalled();
  const name = `test_${Date.now()}_${process.pid}`;
  let baseUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let databaseUrl: string;
  let runtimeDatabaseUrl: string;
  if (baseUrl) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const found = await admin.query('select 1 from pg_roles where rolname = $1', [RUNTIME_ROLE]);
    if (found.rowCount === 0) await admin.query(`create role ${RUNTIME_ROLE} login password '${RUNTIME_ROLE}'`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    url.username = RUNTIME_ROLE;
    url.password = RUNTIME_ROLE;
    runtimeDatabaseUrl = url.toString();
  } else {
    // A port free now rather than a fixed one: a fixed port in the kernel's ephemeral range can be held by any
    // outgoing connection, or by another checkout's test run on the machine. The cluster's folder is kept across runs.
    const port = process.env.TEST_PG_PORT ? Number(process.env.TEST_PG_PORT) : await freePort();
    const pg = await startEmbeddedPostgres(resolve(import.meta.dirname, '../../.data/test'), port, log, 'postgres-test');
    await pg.createDatabase(name);
    await pg.ensureLoginRole(RUNTIME_ROLE);
    databaseUrl = pg.url(name);
    runtimeDatabaseUrl = pg.url(name, RUNTIME_ROLE);
    stop = () => pg.stop();
  }
  // What a setup that fails part-way has started is stopped again: vitest runs no teardown for it, and a PostgreSQL
  // or Temporal server left behind outlives the run.
  let temporal: RunningDevServer | undefined;
  try {
    await migrate(databaseUrl, runtimeDatabaseUrl);
    project.provide('databaseUrl', databaseUrl);
    project.provide('runtimeDatabaseUrl', runtimeDatabaseUrl);

    // A real Temporal server (the CLI's development server, in memory) and the workflow bundle, built once per run.
    temporal = await startOnFreePorts(log);
    project.provide('temporalAddress', temporal.address);
    project.provide('temporalPayloadKeys', formatPayloadKeys([newPayloadKey('test')]));
    project.provide('registrySecretKeys', formatPayloadKeys([newPayloadKey('test-secrets')]));
    const bundleDir = resolve(import.meta.dirname, '../../.data/test');
    await mkdir(bundleDir, { recursive: true });
    const workflowBundlePath = resolve(bundleDir, `workflow-bundle-${process.pid}.js`);
    await writeFile(workflowBundlePath, (await bundleWorkflows()).code);
    project.provide('workflowBundlePath', workflowBundlePath);
    const running = temporal;
    return async () => {
      // Every event the run appended fits the event catalog (silent when it does: the closing line stays vitest's
      // summary); the servers stop whatever the verdict.
      try {
        await checkAppendedEvents(databaseUrl);
      } finally {
        await rm(workflowBundlePath, { force: true });
        await running.stop();
        await stop();
      }
    };
  } catch (error) {
    await temporal?.stop();
    await stop();
    throw error;
  }
}

/**
 * A port found free can be taken before the server binds it (the machine's outgoing connections draw from the same
 * range): the development server then exits at once. Fresh ports, up to three times; any other failure stands.
 */
async function startOnFreePorts(log: Logger): Promise<RunningDevServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startTemporalDevServer({ port: await freePort(), uiPort: await freePort() }, log);
    } catch (error) {
      if (!(error instanceof DevServerExited) || attempt === 3) throw error;
      log.warn({ err: error, attempt }, 'temporal dev server exited during start-up; trying again on other ports');
    }
  }
}
