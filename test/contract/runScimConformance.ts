/**
 * The SCIM conformance checks of issues #38 and #57: two suites the project did not write, each pinned and installed
 * from PyPI into .tools/, each against a fresh directory of the service as `npm start` runs it with AUTH_ENABLED on
 * (the tenant and the directories are made through the API with a registry:admin token; a suite speaks with its
 * directory's own token):
 *   - `scim2-tester`: exits non-zero on any check that is neither a success nor skipped for a feature the endpoint
 *     says it lacks;
 *   - `scim-sanity`'s probe in its strict mode (the default: application/json for application/scim+json and the other
 *     deviations it knows of real servers are failures, not warnings): exits non-zero on any failure or error.
 * Exits non-zero when either suite does.
 *   node test/contract/runScimConformance.ts
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { startOidcIssuer } from '../support/oidcIssuer.ts';
import { pinnedPythonTool } from './pinnedPythonTool.ts';
import { withServiceAsStarted } from './serviceAsStarted.ts';

const SCIM2_TESTER = 'scim2-tester[httpx2]==0.5.2';
const SCIM_SANITY = 'scim-sanity==0.7.4';

const root = resolve(import.meta.dirname, '../..');
const log = (message: string) => console.log(`[scim] ${message}`);

async function post(url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A suite run as a Python process, each line of its output behind `[<name>]`; answers its exit code. */
async function runSuite(name: string, toolDir: string, args: string[]): Promise<number> {
  const child = spawn(process.env.PYTHON ?? 'python3', args, { cwd: root, env: { ...process.env, PYTHONPATH: toolDir }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  for await (const line of createInterface({ input: child.stdout!, crlfDelay: Infinity })) process.stdout.write(`[${name}] ${line}\n`);
  return exited;
}

const suites = [
  {
    name: 'scim2-tester',
    toolDir: await pinnedPythonTool('scim2-tester', SCIM2_TESTER, join('scim2_tester', '__init__.py'), log),
    args: (base: string, token: string) => [join(root, 'test', 'contract', 'scimConformance.py'), base, token],
  },
  {
    name: 'scim-sanity',
    toolDir: await pinnedPythonTool('scim-sanity', SCIM_SANITY, join('scim_sanity', '__init__.py'), log),
    // The probe creates and deletes its own users and groups (--i-accept-side-effects), here in a directory of its own.
    args: (base: string, token: string) => ['-m', 'scim_sanity', 'probe', base, '--token', token, '--strict', '--i-accept-side-effects'],
  },
];
const issuer = await startOidcIssuer();
const failed: string[] = [];
try {
  const admin = await issuer.sign({ aud: 'tenant-registry', azp: 'scim-conformance', scope: 'registry:admin', exp: Math.floor(Date.now() / 1000) + 3600 });
  // The suites send their requests back to back and read a 429 as a failure: the per-directory budget has its own
  // tests (test/api/directories), so here it is set out of the suites' way.
  await withServiceAsStarted('scim', { AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer, SCIM_RATE_LIMIT_PER_SECOND: '1000' }, async (baseUrl) => {
    const { tenant } = (await post(`${baseUrl}/v1/tenants`, admin, { slug: `scim-conformance-${Date.now()}`, name: 'SCIM conformance' })) as { tenant: { id: string } };
    for (const suite of suites) {
      const directory = (await post(`${baseUrl}/v1/tenants/${tenant.id}/directories`, admin, {})) as { scim_base_url: string; token: string };
      log(`${suite.name} against a fresh directory at ${directory.scim_base_url}`);
      const code = await runSuite(suite.name, suite.toolDir, suite.args(directory.scim_base_url, directory.token));
      log(code === 0 ? `PASS: ${suite.name}` : `FAIL: ${suite.name} exited ${code}`);
      if (code !== 0) failed.push(suite.name);
    }
  });
} finally {
  await issuer.close();
}
log(failed.length === 0 ? 'PASS: every suite passed' : `FAIL: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
