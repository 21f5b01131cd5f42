import { Pool } from 'undici';
import { startWebhookReceiver } from '../test/support/webhookReceiver.ts';
import { summarizeLatencies, type LoadResult } from './loadRun.ts';

export interface AppendToReceiverOptions {
  serviceUrl: string;
  /** Appends a second, paced evenly (open loop). */
  rate: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  tenantIds: string[];
  /** The product action appended: the endpoint's only type, so nothing else of the log is delivered to it. */
  action: string;
  /** How long, after the last append, the deliveries may take to arrive before the missing ones count as errors. */
  drainMs: number;
}

/**
 * Append to receiver: a webhook endpoint registered to a receiver in this process (it verifies every delivery with
 * the standardwebhooks library), then product events appended through POST /v1/audit at `rate`; each event's latency
 * is from when its append was due to when its delivery arrived verified, so the append's own answer, the worker's
 * read of the log and the signed POST are all in it. An append refused, or an event not delivered within `drainMs`
 * of the last append, or not verified, is an error. `rps` is events delivered a second over the run.
 */
export async function measureAppendToReceiver(options: AppendToReceiverOptions): Promise<LoadResult> {
  const { serviceUrl, rate, connections, tenantIds, action } = options;
  const receiver = await startWebhookReceiver();
  const pool = new Pool(serviceUrl, { connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  let endpointId: string | undefined;
  try {
    const created = await pool.request({
      path: '/v1/webhook-endpoints',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, types: [action] }),
    });
    const endpoint = (await created.body.json()) as { id: string; secret: string };
    if (created.statusCode !== 201) throw new Error(`the bench's webhook endpoint was not created: ${created.statusCode} ${JSON.stringify(endpoint)}`);
    endpointId = endpoint.id;
    receiver.trust(endpoint.secret);
    const run = async (seconds: number) => {
      const due = new Map<string, number>();
      let refused = 0;
      const total = Math.max(1, Math.round(rate * seconds));
      const sent: Promise<void>[] = [];
      const append = (index: number, dueAt: number) =>
        pool
          .request({
            path: '/v1/audit',
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ action, tenant_id: tenantIds[index % tenantIds.length], metadata: { n: index } }),
          })
          .then(async (res) => {
            const body = await res.body.text();
            if (res.statusCode === 201) due.set(String((JSON.parse(body) as { id: number }).id), dueAt);
            else refused += 1;
          })
          .catch(() => {
            refused += 1;
          });
      const firstDelivery = receiver.deliveries.length;
      const started = performance.now();
      await new Promise<void>((allSent) => {
        let index = 0;
        const tick = () => {
          const now = performance.now();
          while (index < total && started + (index * 1000) / rate <= now) {
            sent.push(append(index, started + (index * 1000) / rate));
            index += 1;
          }
          if (index < total) setTimeout(tick, 1);
          else allSent();
        };
        tick();
      });
      await Promise.all(sent);
      const deadline = performance.now() + options.drainMs;
      const arrived = () => receiver.deliveries.slice(firstDelivery).filter((d) => due.has(d.webhookId));
      while (new Set(arrived().map((d) => d.webhookId)).size < due.size && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // The first verified arrival of each event; a repeat (at least once) is not a second sample.
      const latencies: number[] = [];
      const seen = new Set<string>();
      let unverified = 0;
      for (const delivery of arrived()) {
        if (seen.has(delivery.webhookId)) continue;
        seen.add(delivery.webhookId);
        if (delivery.verifiedBy.length === 0) unverified += 1;
        else latencies.push(delivery.receivedAt - due.get(delivery.webhookId)!);
      }
      const last = Math.max(started, ...arrived().map((d) => d.receivedAt));
      return summarizeLatencies(Float64Array.from(latencies), refused + unverified + (due.size - seen.size), (last - started) / 1000);
    };
    if (options.warmupSeconds > 0) await run(options.warmupSeconds);
    return await run(options.durationSeconds);
  } finally {
    // With --reuse the database outlives the run: no endpoint is left retrying a receiver that is gone.
    if (endpointId) await pool.request({ path: `/v1/webhook-endpoints/${endpointId}`, method: 'DELETE' }).then((res) => res.body.dump());
    await pool.close();
    await receiver.close();
  }
}
