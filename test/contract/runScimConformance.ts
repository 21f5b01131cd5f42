/**
 * The SCIM conformance check of issue #38: `scim2-tester` (pinned, from PyPI into .tools/), a suite the project did not
 * write, against a fresh directory of the service as `npm start` runs it with AUTH_ENABLED on: the tenant and the
 * directory are made through the API with a registry:admin token, the suite speaks with the directory's own token.
 * Exits non-zero on any check that is neither a success nor skipped for a feature the endpoint says it lacks.
 *   node test/contract/runScimConformance.ts
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { startOidcIssuer } from '../support/oidcIssuer.ts';
import { pinnedPythonTool } from './pinnedPythonTool.ts';
import { withServiceAsStarted } from './serviceAsStarted.ts';

const SCIM2_TESTER = 'scim2-tester[httpx2]==0.5.2';

const root = resolve(import.meta.dirname, '../..');
const log = (message: string) => console.log(`[scim] ${message}`);

async function post(url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** The suite's checks, each line of its output behind `[scim2-tester]`; answers its exit code. */
async function conformance(toolDir: string, scimBaseUrl: string, token: string): Promise<number> {
  const child = spawn(process.env.PYTHON ?? 'python3', [join(root, 'test', 'contract', 'scimConformance.py'), scimBaseUrl, token], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: toolDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  for await (const line of createInterface({ input: child.stdout!, crlfDelay: Infinity })) process.stdout.write(`[scim2-tester] ${line}\n`);
  return exited;
}

const toolDir = await pinnedPythonTool('scim2-tester', SCIM2_TESTER, join('scim2_tester', '__init__.py'), log);
const issuer = await startOidcIssuer();
let code = 1;
try {
  const admin = await issuer.sign({ aud: 'tenant-registry', azp: 'scim-conformance', scope: 'registry:admin', exp: Math.floor(Date.now() / 1000) + 3600 });
  // The suite sends its ~200 requests back to back and reads a 429 as a failure: the per-directory budget has its
  // own tests (test/api/directories), so here it is set out of the suite's way.
  code = await withServiceAsStarted('scim', { AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer, SCIM_RATE_LIMIT_PER_SECOND: '1000' }, async (baseUrl) => {
    const { tenant } = (await post(`${baseUrl}/v1/tenants`, admin, { slug: `scim-conformance-${Date.now()}`, name: 'SCIM conformance' })) as { tenant: { id: string } };
    const directory = (await post(`${baseUrl}/v1/tenants/${tenant.id}/directories`, admin, {})) as { scim_base_url: string; token: string };
    log(`scim2-tester against a fresh directory at ${directory.scim_base_url}`);
    return conformance(toolDir, directory.scim_base_url, directory.token);
  });
} finally {
  await issuer.close();
}
log(code === 0 ? 'PASS: every scim2-tester check succeeded or was skipped' : `FAIL: scim2-tester exited ${code}`);
process.exit(code);
