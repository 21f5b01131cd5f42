import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EVENT_TYPES } from '../../domain/events/eventTypes.ts';
import type { StreamVerdict } from '../../domain/events/verifyEventStream.ts';
import { startWebhookReceiver } from '../support/webhookReceiver.ts';

/** What the chaos run lends this phase: its API client, its faults and where it writes. */
export interface WebhookChaosContext {
  root: string;
  dataDir: string;
  runId: string;
  log: (message: string) => void;
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any } | undefined>;
  /** The faults, each a SIGKILL and a restart. */
  killWorker: () => Promise<void>;
  killApi: () => Promise<void>;
  killPostgres: () => Promise<void>;
}

export interface Invariant {
  name: string;
  held: boolean;
  figures: string;
}

/** Changes a second the phase aims at; with 10,000 events the three kills fall within a load of about 45 s. */
const CHANGES_PER_SECOND = 220;
const IN_FLIGHT = 24;
const TENANTS = 20;
/** One change in this many is a tenant's rename (tenant.updated); the others are a product's own event. */
const RENAME_EVERY = 5;
const DELIVERY_LIMIT_MS = 240_000;
/** How long a fault waits for deliveries to flow again after the one before it (a restarted worker starts slowly). */
const FLOWING_LIMIT_MS = 90_000;
/** Deliveries since the fault before that count as flowing again: a request in flight at a kill may still arrive. */
const FLOWING_DELIVERIES = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Webhooks under chaos (issue #61): an endpoint subscribed to every type the phase appends, delivering to a receiver
 * that verifies each request with the standardwebhooks library and records it; `events` changes through the API
 * (a product's events and tenant renames) while the worker, the API and PostgreSQL are SIGKILLed and restarted in
 * turn. Then the receiver's capture goes through `npm run verify-events` with the feed's newest event as the head:
 * no gap, no hash mismatch, every acknowledged change delivered, and each repeated delivery named a duplicate by the
 * verifier under the webhook-id the receiver saw repeated.
 */
export async function runWebhookChaos(context: WebhookChaosContext, events: number): Promise<Invariant[]> {
  const { call, log } = context;
  const receiver = await startWebhookReceiver();
  const tenants: string[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const res = await call('POST', '/v1/tenants', { slug: `chaos-hooks-${context.runId}-${i}`, name: `Hooks ${i}` });
    if (res?.status !== 201) throw new Error(`a webhook phase tenant was not created: ${res?.status}`);
    tenants.push(res.body.tenant.id);
  }
  // Every service type, and the product action this phase appends: nothing appended meanwhile is left out, so the
  // capture must hold the whole log from the endpoint's creation on and the verifier checks it unfiltered.
  const action = `chaos.webhook.${context.runId}`;
  const created = await call('POST', '/v1/webhook-endpoints', { url: receiver.url, types: [...Object.keys(EVENT_TYPES), action] });
  if (created?.status !== 201) throw new Error(`the webhook endpoint was not created: ${created?.status} ${JSON.stringify(created?.body)}`);
  receiver.trust(created.body.secret as string);
  const fromSequence = created.body.last_delivered_sequence as string;

  const statuses = new Map<number | string, number>();
  const badAnswers: string[] = [];
  const counted = async (method: string, path: string, body: unknown) => {
    const res = await call(method, path, body);
    const status = res?.status ?? 'no answer';
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (res && res.status >= 500 && res.status !== 503) badAnswers.push(`${method} ${path} → ${res.status}`);
    return res;
  };
  const appendedIds: number[] = [];
  let renames = 0;
  let acknowledged = 0;
  let next = 0;
  const change = async () => {
    const n = next++;
    if (n % RENAME_EVERY === 0) {
      // A name no tenant had: a PATCH that changes nothing appends nothing.
      const res = await counted('PATCH', `/v1/tenants/${tenants[(n / RENAME_EVERY) % TENANTS]}`, { name: `Renamed ${n}` });
      if (res?.status === 200) {
        renames++;
        acknowledged++;
      }
    } else {
      const res = await counted('POST', '/v1/audit', { action, tenant_id: tenants[n % TENANTS], metadata: { n } });
      if (res?.status === 201) {
        appendedIds.push(Number(res.body.id));
        acknowledged++;
      }
    }
  };

  // The kills at fixed shares of the planned load, so each falls while changes are appended, and each once deliveries
  // flow again after the fault before it, so each cuts into them (a worker killed mid-batch resumes from its last
  // heartbeat and repeats some).
  const planned = (events / CHANGES_PER_SECOND) * 1000;
  const start = Date.now();
  const faultTimes: string[] = [];
  let deliveredAtFault = 0;
  const faults = (async () => {
    for (const [share, what, fault] of [
      [0.15, 'worker', context.killWorker],
      [0.4, 'API', context.killApi],
      [0.65, 'PostgreSQL', context.killPostgres],
    ] as const) {
      await sleep(Math.max(0, start + share * planned - Date.now()));
      const flowing = Date.now() + FLOWING_LIMIT_MS;
      while (receiver.deliveries.length < deliveredAtFault + FLOWING_DELIVERIES && Date.now() < flowing) await sleep(100);
      log(`webhooks: ${what} killed (SIGKILL) after ${acknowledged} changes, ${receiver.deliveries.length} deliveries`);
      faultTimes.push(`${what} at ${((Date.now() - start) / 1000).toFixed(1)} s`);
      await fault();
      deliveredAtFault = receiver.deliveries.length;
    }
  })();
  const loadLimit = start + planned * 4 + 60_000;
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; acknowledged < events && Date.now() < loadLimit; i++) {
    // Paced, and bounded in flight: a slow or restarting API holds the load back rather than piling requests up.
    await sleep(Math.max(0, start + (i * 1000) / CHANGES_PER_SECOND - Date.now()));
    while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
    const task: Promise<void> = change().finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  await faults;
  const loadSeconds = (Date.now() - start) / 1000;
  log(`webhooks: ${acknowledged} changes acknowledged in ${loadSeconds.toFixed(1)} s; answers ${JSON.stringify(Object.fromEntries(statuses))}`);

  // The log's newest event after the endpoint's creation, from the feed: the capture must reach it.
  const feedHead = async () => {
    let after = fromSequence;
    let first: string | undefined;
    let last: { sequence: string; chainhash: string } | undefined;
    for (;;) {
      const page = await call('GET', `/v1/events?after=${after}&limit=500`);
      if (page?.status !== 200) throw new Error(`the feed answered ${page?.status}`);
      first ??= page.body.items[0]?.id;
      if (page.body.items.length > 0) last = page.body.items.at(-1);
      if (page.body.items.length < 500) return { first, last };
      after = page.body.next_cursor;
    }
  };
  const deliveredMax = () => receiver.deliveries.reduce((max, d) => Math.max(max, Number(d.webhookId)), 0);
  const deliveryStart = Date.now();
  let head = await feedHead();
  while (head.last && deliveredMax() < Number(head.last.sequence) && Date.now() - deliveryStart < DELIVERY_LIMIT_MS) {
    await sleep(1000);
    head = await feedHead();
  }
  const caughtUpSeconds = (Date.now() - deliveryStart) / 1000;
  await receiver.close();

  const capture = join(context.dataDir, 'webhook-capture.ndjson');
  await writeFile(capture, receiver.deliveries.map((d) => `${JSON.stringify({ headers: d.headers, body: d.body })}\n`).join(''));
  const headArg = head.last ? ['--head', `${head.last.sequence}:${head.last.chainhash}`] : [];
  const verifier = spawn(process.execPath, [join(context.root, 'scripts/verify-events.ts'), capture, ...headArg, '--json'], { cwd: context.root, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  verifier.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exitCode = await new Promise<number | null>((done) => verifier.once('exit', done));
  const verdict = JSON.parse(output) as StreamVerdict;

  const deliveries = receiver.deliveries;
  const unverified = deliveries.filter((d) => d.verifiedBy.length !== 1);
  const misnamed = deliveries.filter((d) => d.webhookId !== String(d.event.id));
  const seen = new Set<string>();
  const repeated = new Set<number>();
  let repeats = 0;
  for (const d of deliveries) {
    if (seen.has(d.webhookId)) {
      repeats++;
      repeated.add(Number(d.webhookId));
    } else seen.add(d.webhookId);
  }
  const namedByVerifier = new Set(verdict.duplicates);
  const duplicatesMatch = repeated.size === namedByVerifier.size && [...repeated].every((id) => namedByVerifier.has(id));
  const delivered = new Set([...seen].map(Number));
  const undelivered = appendedIds.filter((id) => !delivered.has(id));
  const renamesDelivered = new Set(deliveries.filter((d) => d.event.type === 'tenant.updated').map((d) => d.webhookId)).size;
  const firstDelivered = deliveries.length > 0 ? Math.min(...delivered) : undefined;

  return [
    { name: 'webhooks: the changes appended', held: acknowledged >= events, figures: `${acknowledged} acknowledged (${appendedIds.length} product events, ${renames} renames) in ${loadSeconds.toFixed(1)} s of ${events} wanted; kills: ${faultTimes.join(', ')}` },
    { name: 'webhooks: every delivery verified by standardwebhooks, its webhook-id the event id', held: unverified.length === 0 && misnamed.length === 0, figures: `${deliveries.length} deliveries, ${unverified.length} not verified, ${misnamed.length} with another webhook-id` },
    {
      name: 'webhooks: the verifier finds 0 gaps and 0 hash mismatches through the feed head',
      held: exitCode === 0 && verdict.ok && verdict.gaps.length === 0 && verdict.mismatches.length === 0 && firstDelivered === Number(head.first),
      figures: `${verdict.checked} events (ids ${verdict.first_id} to ${verdict.last_id}; the feed's first after the creation ${head.first}, head ${head.last?.sequence}), ${verdict.gaps.length} gaps, ${verdict.mismatches.length} mismatches, exit ${exitCode}; caught up ${caughtUpSeconds.toFixed(1)} s after the load`,
    },
    { name: 'webhooks: every acknowledged change delivered', held: undelivered.length === 0 && renamesDelivered >= renames, figures: `${appendedIds.length - undelivered.length}/${appendedIds.length} product events, ${renamesDelivered} tenant.updated for ${renames} renames` },
    {
      name: 'webhooks: every duplicate delivery named by the verifier under its webhook-id',
      held: duplicatesMatch && deliveries.length === verdict.checked + repeats,
      figures: `${repeats} repeated deliveries of ${repeated.size} ids; the verifier names ${verdict.duplicates.length} duplicates${duplicatesMatch ? ', the same ids' : ', NOT the same ids'}`,
    },
    { name: 'webhooks: no 5xx but 503', held: badAnswers.length === 0, figures: `${badAnswers.length} other 5xx${badAnswers.length > 0 ? `: ${badAnswers.slice(0, 5).join('; ')}` : ''}` },
  ];
}
