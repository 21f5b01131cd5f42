/**
 * Takes the screenshots of docs/operators.md from the real Temporal Web UI served by the development server.
 *
 * It runs the whole service (`node scripts/start.ts`) on ports and a data folder of its own, creates a healthy tenant
 * and one whose provisioning fails (a fault injected into the simulated identity provider), then drives headless
 * Chromium through what an operator does: find the workflow, read its history and state, fix the cause, send the
 * retryProvisioning signal, and see provisioning complete. It checks each outcome through the API as it goes and
 * stops with an error when the service does not behave as the document says.
 *
 * usage: node scripts/operator-screenshots.ts [--out <folder>]   (default docs/images)
 * Needs Chromium: Debian's `apt-get install -y chromium` (/usr/bin/chromium), or CHROMIUM_PATH.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { out: { type: 'string', default: join(root, 'docs', 'images') } } });
const outDir = resolve(values.out);

const PORTS = { api: 18080, temporal: 17233, ui: 18233, postgres: 54400 };
const DATA_DIR = join(root, '.data', 'screenshots');
const DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${PORTS.postgres}/tenant_registry`;
const API = `http://127.0.0.1:${PORTS.api}`;
const WEB_UI = `http://127.0.0.1:${PORTS.ui}`;
const NAMESPACE = 'default';
const OPERATOR = 'ops@example.com';
const FAILING = { slug: 'acme-corp', name: 'Acme Corp', admin_email: 'it-admin@acme.example', admin_name: 'Ada Admin' };
const HEALTHY = { slug: 'globex', name: 'Globex', admin_email: 'it-admin@globex.example', admin_name: 'Grace Admin' };
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const step = (message: string) => console.log(`• ${message}`);

async function eventually<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

type Json = Record<string, any>;

async function callApi(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

async function auditOf(tenantId: string, action: string): Promise<Json[]> {
  const { body } = await callApi('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`);
  return body.items as Json[];
}

/** The simulated provider's fault CLI, exactly as an operator runs it. */
async function idpSim(...args: string[]): Promise<string> {
  step(`node scripts/idp-sim.ts ${args.join(' ')}`);
  const { stdout } = await run(process.execPath, [join(root, 'scripts', 'idp-sim.ts'), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL },
  });
  return stdout;
}

async function startService(): Promise<ChildProcess> {
  await rm(DATA_DIR, { recursive: true, force: true });
  await mkdir(DATA_DIR, { recursive: true });
  const logFile = join(DATA_DIR, 'service.log');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORTS.api),
    TEMPORAL_DEV_PORT: String(PORTS.temporal),
    TEMPORAL_UI_PORT: String(PORTS.ui),
    EMBEDDED_PG_PORT: String(PORTS.postgres),
    METRICS_PORT: '0',
    WORKER_METRICS_PORT: '0',
    DATA_DIR,
    LOG_LEVEL: 'info',
    // The Web UI decodes the history and encodes the signal's input through the codec endpoint (loopback, no authentication).
    CODEC_ENDPOINT_ENABLED: 'true',
  };
  // Everything embedded: no external database, Temporal or Keycloak even if this shell points at them.
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'IDP_ADMIN_URL', 'AUTH_ENABLED']) delete env[name];
  step(`starting the service (log: ${relative(root, logFile)})`);
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile);
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  await eventually(
    'the service to answer GET /readyz',
    async () => {
      if (exited) throw new Error(`the service exited during start-up; see ${logFile}`);
      const response = await fetch(`${API}/readyz`);
      return response.status === 200 ? true : undefined;
    },
    180_000,
  ).catch((error: unknown) => {
    if (exited) throw new Error(`the service exited during start-up; see ${logFile}`);
    throw error;
  });
  return child;
}

async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

async function shoot(page: Page, name: string): Promise<void> {
  // Lets spinners and the history's auto-refresh settle before the picture.
  await page.waitForLoadState('networkidle').catch(() => {});
  await sleep(800);
  const path = join(outDir, `${name}.png`);
  await page.screenshot({ path });
  step(`saved ${relative(root, path)}`);
}

async function openWorkflow(page: Page, workflowId: string, tab: 'history' | 'query'): Promise<void> {
  // The UI redirects a workflow id to its latest run: /namespaces/<ns>/workflows/<workflow id>/<run id>/<tab>.
  await page.goto(`${WEB_UI}/namespaces/${NAMESPACE}/workflows/${workflowId}`);
  await page.waitForURL(new RegExp(`/workflows/${workflowId}/[^/]+/[a-z-]+$`));
  await page.goto(page.url().replace(/\/[a-z-]+$/, `/${tab}`));
  await page.getByText('Workflow Type').first().waitFor();
}

/**
 * The Event History tab in its compact view (one row per activity, signal or update), scrolled so that the table fills
 * the picture; waits until a row showing `mustShow` is there.
 */
async function showHistory(page: Page, workflowId: string, mustShow: string): Promise<void> {
  await openWorkflow(page, workflowId, 'history');
  await page.getByRole('button', { name: 'Compact' }).click();
  // Visible only: the Send a Signal dialog, hidden until opened, lists signal names too.
  await page.getByText(mustShow).filter({ visible: true }).first().waitFor();
  const heading = page.getByRole('heading', { name: 'Event History' }).first();
  const box = await heading.boundingBox();
  if (!box) throw new Error('no Event History heading on the page');
  // The wheel scrolls the content pane under the pointer, vertically only.
  await page.mouse.move(box.x + 400, (page.viewportSize()?.height ?? 800) / 2);
  await page.mouse.wheel(0, box.y - 64);
  await sleep(400);
}

async function runStateQuery(page: Page, workflowId: string, expected: string): Promise<void> {
  await openWorkflow(page, workflowId, 'query');
  await page.getByRole('button', { name: 'Run Query' }).click();
  await page.getByText(expected).first().waitFor();
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  const service = await startService();
  let browser: Browser | undefined;
  try {
    step('creating a tenant whose provisioning succeeds');
    const healthy = await callApi('POST', '/v1/tenants', HEALTHY);
    if (healthy.status !== 201) throw new Error(`healthy tenant: ${JSON.stringify(healthy)}`);
    // Usually in the response already; a cold worker may take longer than the API waits (PROVISIONING_WAIT_MS).
    await eventually('idp.invite_sent of the healthy tenant', async () => {
      const items = await auditOf(healthy.body.tenant.id as string, 'idp.invite_sent');
      return items.length > 0 ? items : undefined;
    });

    console.log(await idpSim('fault', 'unauthorized', '--tenant', FAILING.slug));
    step('creating a tenant whose provisioning fails');
    const failing = await callApi('POST', '/v1/tenants', FAILING);
    if (failing.status !== 201 || failing.body.invite_url) throw new Error(`failing tenant: ${JSON.stringify(failing)}`);
    const tenantId = failing.body.tenant.id as string;
    const workflowId = `tenant-${tenantId}`;
    const [failure] = await eventually('idp.provision_failed', async () => {
      const items = await auditOf(tenantId, 'idp.provision_failed');
      return items.length > 0 ? items : undefined;
    });
    console.log(`GET /v1/audit?tenant_id=${tenantId}&action=idp.provision_failed →`, JSON.stringify(failure));

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The history table is wide: a larger layout drawn at 0.8 keeps its details column in a 1280×800 picture.
    const historyPage = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 0.8 });

    step('Web UI: the tenant actors, filtered by workflow type');
    await page.goto(`${WEB_UI}/namespaces/${NAMESPACE}/workflows?query=${encodeURIComponent('WorkflowType="tenantActorWorkflow"')}`);
    await page.getByRole('link', { name: workflowId }).waitFor();
    await page.getByRole('link', { name: `tenant-${healthy.body.tenant.id}` }).waitFor();
    await shoot(page, 'operators-01-workflow-list');

    step("Web UI: the failing tenant's history");
    await showHistory(historyPage, workflowId, 'HTTP 401 Unauthorized');
    await shoot(historyPage, 'operators-02-history-failed');

    step('Web UI: the state query after the failure');
    await runStateQuery(page, workflowId, '"unauthorized"');
    await shoot(page, 'operators-03-state-failed');

    step('fixing the cause: clearing the simulated fault');
    console.log(await idpSim('clear', '--tenant', FAILING.slug));

    step('Web UI: Send a Signal → retryProvisioning');
    await openWorkflow(page, workflowId, 'history');
    await page.getByRole('button', { name: 'More Actions' }).first().click();
    await page.getByRole('menuitem', { name: 'Send a Signal' }).click();
    const dialog = page.getByRole('dialog').filter({ visible: true });
    await dialog.getByTestId('signal-select-button').click();
    await dialog.getByRole('option', { name: 'retryProvisioning' }).click();
    const input = dialog.getByRole('textbox', { name: 'Data' });
    await input.click();
    // insertText: the editor's bracket auto-closing reacts to typed keys, not to inserted text.
    await page.keyboard.insertText(JSON.stringify({ requested_by: OPERATOR }));
    const typed = (await input.innerText()).trim();
    if (typed !== JSON.stringify({ requested_by: OPERATOR })) throw new Error(`signal input reads ${typed}`);
    await shoot(page, 'operators-04-send-signal');
    await dialog.getByTestId('confirm-modal-button').click();
    await dialog.waitFor({ state: 'hidden' });

    const [sent] = await eventually('idp.invite_sent after the retry', async () => {
      const items = await auditOf(tenantId, 'idp.invite_sent');
      return items.length > 0 ? items : undefined;
    });
    console.log(`GET /v1/audit?tenant_id=${tenantId}&action=idp.invite_sent →`, JSON.stringify(sent));

    step('Web UI: the history after the retry');
    await showHistory(historyPage, workflowId, 'retryProvisioning');
    await shoot(historyPage, 'operators-05-history-retried');

    step('Web UI: the state query after the retry');
    await runStateQuery(page, workflowId, '"succeeded"');
    await shoot(page, 'operators-06-state-succeeded');

    step('the same from the API: resend the invite');
    const resend = await callApi('POST', `/v1/tenants/${tenantId}/idp/resend-invite`, { requested_by: OPERATOR });
    console.log(`POST /v1/tenants/${tenantId}/idp/resend-invite →`, resend.status, JSON.stringify(resend.body));
    const resent = await eventually('a second idp.invite_sent', async () => {
      const items = await auditOf(tenantId, 'idp.invite_sent');
      return items.length > 1 ? items[0] : undefined;
    });
    console.log('newest idp.invite_sent →', JSON.stringify(resent));
    console.log(await idpSim('emails', FAILING.admin_email));
  } finally {
    await browser?.close();
    step('stopping the service');
    await stopService(service);
  }
}

await main();
