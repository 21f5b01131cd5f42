import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../platform/embeddedPostgres.ts';
import { createLogger } from '../../platform/logger.ts';
import { migrate, openOrm } from '../../store/orm.ts';
import { startTemporalDevServer } from '../../platform/temporalDevServer.ts';
import { bundleWorkflows } from '../../worker/createTenantWorker.ts';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { freePort } from '../../platform/freePort.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

/**
 * One real PostgreSQL for the run: TEST_DATABASE_URL when given, else an embedded cluster in .data/test.
 * Each run gets a fresh database, migrated the way the service migrates, so runs never see each other's rows.
 */
export default async function setup(project: TestProject) {
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'test-postgres');
  const name = `test_${Date.now()}_${process.pid}`;
  let baseUrl = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let databaseUrl: string;
  if (baseUrl) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  } else {
    const port = Number(process.env.TEST_PG_PORT ?? 54339);
    const pg = await startEmbeddedPostgres(resolve(import.meta.dirname, '../../.data/test'), port, log);
    await pg.createDatabase(name);
    databaseUrl = pg.url(name);
    stop = () => pg.stop();
  }
  const orm = await openOrm(databaseUrl, 2);
  await migrate(orm, databaseUrl);
  await orm.close();
  project.provide('databaseUrl', databaseUrl);

  // A real Temporal server (the CLI's development server, in memory) and the workflow bundle, built once per run.
  const temporal = await startTemporalDevServer({ port: await freePort(), uiPort: await freePort() }, log);
  project.provide('temporalAddress', temporal.address);
  const bundleDir = resolve(import.meta.dirname, '../../.data/test');
  await mkdir(bundleDir, { recursive: true });
  const workflowBundlePath = resolve(bundleDir, `workflow-bundle-${process.pid}.js`);
  await writeFile(workflowBundlePath, (await bundleWorkflows()).code);
  project.provide('workflowBundlePath', workflowBundlePath);
  return async () => {
    await rm(workflowBundlePath, { force: true });
    await temporal.stop();
    await stop();
  };
}
