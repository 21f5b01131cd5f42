/**
 * The contract check of issue #16: Schemathesis (pinned, from PyPI into .tools/) against the service as `npm start`
 * runs it, every check and every phase (examples, coverage, fuzzing, stateful), twice: with AUTH_ENABLED off, and on
 * with a token of a loopback OIDC issuer (the one the tests use). Exits non-zero on any failure or on fewer than
 * MIN_CASES generated cases in a run; prints Schemathesis's summary of each run.
 *   node test/contract/runSchemathesis.ts
 * Per-operation allowances for rules JSON Schema cannot state are in schemathesis.toml, each with its reason.
 */
import { execFile, spawn } from 'node:child_process';
import { access, constants, mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createInterface } from 'node:readline';
import { freePort } from '../../platform/freePort.ts';
import { startOidcIssuer } from '../support/oidcIssuer.ts';
import { startDnsServer } from '../support/dnsServer.ts';

const SCHEMATHESIS_VERSION = '4.32.5';
const MIN_CASES = 2000;
/** Examples per operation and phase: with 37 operations and four phases, well above MIN_CASES. */
const MAX_EXAMPLES = 40;
/** Fixed, so a failure in CI reproduces locally with the same command; change it to explore. */
const SEED = 20261122;

const root = resolve(import.meta.dirname, '../..');
const toolDir = join(root, '.tools', 'schemathesis');
const run = promisify(execFile);
const log = (message: string) => console.log(`[contract] ${message}`);

async function schemathesis(): Promise<string> {
  const st = join(toolDir, 'bin', 'st');
  if (await access(st, constants.X_OK).then(() => true, () => false)) return st;
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI into .tools/schemathesis`);
  await run(process.env.PYTHON ?? 'python3', ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--target', toolDir, `schemathesis==${SCHEMATHESIS_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return st;
}

async function waitForReady(url: string, child: ReturnType<typeof spawn>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if ((await fetch(url).catch(() => undefined))?.status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the service was not ready within ${timeoutMs} ms`);
}

/** `npm start` on ports and a data folder of its own, with `env` added; stopped (its whole process group) at the end. */
async function withService<T>(name: string, env: Record<string, string>, body: (baseUrl: string) => Promise<T>): Promise<T> {
  const dataDir = join(root, '.data', `contract-${name}`);
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      TEMPORAL_DEV_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      // Domains are looked up at a DNS server of the run's own, which answers every name (no record: NXDOMAIN).
      DNS_SERVERS: dns.address,
      // Made-up issuers' names are looked up too: a short bound keeps the run's pace.
      SSO_DISCOVERY_TIMEOUT_MS: '1000',
      ...env,
    },
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(`${baseUrl}/readyz`, child, 180_000);
    return await body(baseUrl);
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 3000));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // stopped in time
    }
  }
}

/**
 * One Schemathesis run; its output goes to ours, each line behind `[schemathesis]`: its closing banner has the shape
 * of pytest's ("=== 1 warning in 72.73s ==="), which CI would read as a test run that executed no test.
 * Answers its exit code and the number of generated cases.
 */
async function check(st: string, baseUrl: string, headers: string[]): Promise<{ code: number; cases: number }> {
  const args = ['run', `${baseUrl}/openapi.json`, '--checks', 'all', '--max-examples', String(MAX_EXAMPLES), '--seed', String(SEED), '--no-color'];
  for (const header of headers) args.push('--header', header);
  const child = spawn(st, args, { cwd: root, env: { ...process.env, PYTHONPATH: toolDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const exited = new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  for await (const line of createInterface({ input: child.stdout!, crlfDelay: Infinity })) {
    output += `${line}\n`;
    process.stdout.write(`[schemathesis] ${line}\n`);
  }
  const code = await exited;
  const cases = Number(/(\d+) generated/.exec(output)?.[1] ?? 0);
  return { code, cases };
}

const st = await schemathesis();
const dns = await startDnsServer();
const results: { name: string; code: number; cases: number }[] = [];

log('run 1: AUTH_ENABLED=false');
results.push({ name: 'AUTH_ENABLED=false', ...(await withService('auth-off', {}, (url) => check(st, url, []))) });

log('run 2: AUTH_ENABLED=true, a registry:admin token of a loopback OIDC issuer');
const issuer = await startOidcIssuer();
try {
  const token = await issuer.sign({ aud: 'tenant-registry', azp: 'schemathesis', scope: 'registry:admin', exp: Math.floor(Date.now() / 1000) + 3600 });
  results.push({
    name: 'AUTH_ENABLED=true',
    ...(await withService('auth-on', { AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }, (url) => check(st, url, [`Authorization: Bearer ${token}`]))),
  });
} finally {
  await issuer.close();
  await dns.close();
}

let failed = false;
for (const { name, code, cases } of results) {
  const ok = code === 0 && cases >= MIN_CASES;
  failed ||= !ok;
  log(`${name}: ${ok ? 'PASS' : 'FAIL'} (exit ${code}, ${cases} cases generated, at least ${MIN_CASES} required)`);
}
process.exit(failed ? 1 : 0);
