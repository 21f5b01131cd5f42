import { Pool } from 'undici';
import { summarizeLatencies, type LoadOptions, type LoadResult } from './loadRun.ts';

/**
 * Open-loop load at a steady rate: request i is due at start + i / rate and is sent then, whatever became of the
 * earlier ones. (autocannon's overallRate lets each connection send its share of a second as fast as it can at the
 * start of that second, which measures the queueing of a burst rather than the latency at the rate.) Latency counts
 * from when a request was due, so waiting for one of the `connections` keep-alive sockets is part of it. undici's
 * pool, because the generator shares the machine with the service: node:http's client costs it more CPU a request.
 */
export async function drivePaced(options: LoadOptions & { rate: number }): Promise<LoadResult> {
  const { rate, requests, nextRequest, check } = options;
  const pool = new Pool(options.url, { connections: options.connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const total = Math.max(1, options.amount ?? Math.round(rate * options.durationSeconds));
  const latencies = new Float64Array(total);
  let count = 0;
  let errors = 0;
  const finished: Promise<void>[] = [];

  const send = (index: number, due: number) =>
    new Promise<void>((done) => {
      const next = nextRequest ? nextRequest() : requests![index % requests!.length]!;
      const record = (ok: boolean) => {
        latencies[count++] = performance.now() - due;
        if (!ok) errors += 1;
        done();
      };
      const headers = next.body === undefined && !next.headers ? undefined : { ...(next.body === undefined ? {} : { 'content-type': 'application/json' }), ...next.headers };
      pool
        .request({ path: next.path, method: next.method, headers, body: next.body })
        .then(async (res) => record(res.statusCode < 300 && check(await res.body.text())))
        .catch(() => record(false));
    });

  // Every socket opened, and a first answer read on it, before the clock starts: a fresh pool's connects otherwise
  // delay the first requests, and in a short run those delays are its p99.
  await Promise.all(Array.from({ length: options.connections }, () => pool.request({ path: '/healthz', method: 'GET' }).then((res) => res.body.dump())));
  const started = performance.now();
  await new Promise<void>((allSent) => {
    let sent = 0;
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + (sent * 1000) / rate <= now) {
        finished.push(send(sent, started + (sent * 1000) / rate));
        sent += 1;
      }
      if (sent < total) setTimeout(tick, 1);
      else allSent();
    };
    tick();
  });
  await Promise.all(finished);
  await pool.close();
  return summarizeLatencies(latencies.subarray(0, count), errors, (performance.now() - started) / 1000);
}
