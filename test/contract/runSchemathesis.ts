/**
 * The contract check of issue #16: Schemathesis (pinned, from PyPI into .tools/) against the service as `npm start`
 * runs it, every check and every phase (examples, coverage, fuzzing, stateful), twice: with AUTH_ENABLED off, and on
 * with a token of a loopback OIDC issuer (the one the tests use). Exits non-zero on any failure or on fewer than
 * MIN_CASES generated cases in a run; prints Schemathesis's summary of each run.
 *   node test/contract/runSchemathesis.ts          (SCHEMATHESIS_SEED=<n> for another seed than CI's)
 * Per-operation allowances for rules JSON Schema cannot state are in schemathesis.toml, each with its reason.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { startOidcIssuer } from '../support/oidcIssuer.ts';
import { startDnsServer } from '../support/dnsServer.ts';
import { pinnedPythonTool } from './pinnedPythonTool.ts';
import { withServiceAsStarted } from './serviceAsStarted.ts';

const SCHEMATHESIS_VERSION = '4.32.5';
const MIN_CASES = 2000;
/** Examples per operation and phase: with 37 operations and four phases, well above MIN_CASES. */
const MAX_EXAMPLES = 40;
/** Fixed, so a failure in CI reproduces locally with the same command; SCHEMATHESIS_SEED explores another. */
const SEED = Number(process.env.SCHEMATHESIS_SEED ?? 20261122);

const root = resolve(import.meta.dirname, '../..');
const log = (message: string) => console.log(`[contract] ${message}`);

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

const toolDir = await pinnedPythonTool('schemathesis', `schemathesis==${SCHEMATHESIS_VERSION}`, join('bin', 'st'), log);
const st = join(toolDir, 'bin', 'st');
const dns = await startDnsServer();
const withService = <T>(name: string, env: Record<string, string>, body: (baseUrl: string) => Promise<T>) =>
  withServiceAsStarted(name, {
    // Domains are looked up at a DNS server of the run's own, which answers every name (no record: NXDOMAIN).
    DNS_SERVERS: dns.address,
    // Made-up issuers' names are looked up too: a short bound keeps the run's pace.
    SSO_DISCOVERY_TIMEOUT_MS: '1000',
    // Audit streams and webhook endpoints the run makes deliver to this machine only, never to a generated public address.
    AUDIT_STREAM_ALLOWED_HOSTS: '127.0.0.1',
    ...env,
  }, body);
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
