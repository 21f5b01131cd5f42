import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, listenerOf, type RunningHttpServer } from '../../platform/httpServer.ts';
import { arrivalOf, RequestAdmission, type RequestAdmissionOptions } from '../../platform/requestAdmission.ts';

/** A server whose handler answers `/<id>` only once the test releases that id; it records what reached it. */
async function heldServer(options: RequestAdmissionOptions) {
  const admission = new RequestAdmission(options);
  const seen: string[] = [];
  const waitedMs = new Map<string, number>();
  const releases = new Map<string, () => void>();
  let concurrent = 0;
  let maxConcurrent = 0;
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const id = req.url!.slice(1);
    seen.push(id);
    waitedMs.set(id, performance.now() - arrivalOf(req));
    maxConcurrent = Math.max(maxConcurrent, ++concurrent);
    await new Promise<void>((resolve) => releases.set(id, resolve));
    concurrent--;
    res.end(id);
  };
  const refused: string[] = [];
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    refused.push(req.url!.slice(1));
    res.statusCode = 503;
    res.end('refused');
  };
  const http = await listen(admission.listenerFor(listenerOf(handler), refuse), 0, '127.0.0.1');
  servers.push(http);
  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(condition()).toBe(true);
  };
  return {
    admission,
    seen,
    refused,
    waitedMs,
    url: `http://127.0.0.1:${http.port}`,
    maxConcurrent: () => maxConcurrent,
    until,
    /** Sends `/<id>` and returns once the server holds it (running or waiting), so arrival order is the call order. */
    async send(id: string, signal?: AbortSignal) {
      const before = admission.running + admission.waiting;
      const response = fetch(`http://127.0.0.1:${http.port}/${id}`, { signal }).then(async (r) => r.text());
      response.catch(() => {});
      await until(() => admission.running + admission.waiting > before);
      // Wrapped, or awaiting send() would wait for the answer.
      return { answer: response };
    },
    async release(id: string) {
      await until(() => releases.has(id));
      releases.get(id)!();
    },
  };
}

const servers: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close(100)));
});

describe('request admission', () => {
  it('runs at most `limit` requests at once; the others wait and run in arrival order', async () => {
    const server = await heldServer({ limit: 2, releaseAfterMs: 60_000 });
    const answers = [];
    for (const id of ['a', 'b', 'c', 'd', 'e']) answers.push((await server.send(id)).answer);
    expect(server.seen).toEqual(['a', 'b']);
    expect([server.admission.running, server.admission.waiting]).toEqual([2, 3]);

    await server.release('b');
    await server.until(() => server.seen.length === 3);
    await server.release('a');
    await server.until(() => server.seen.length === 4);
    for (const id of ['c', 'd', 'e']) await server.release(id);
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(server.seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(server.maxConcurrent()).toBe(2);
    await server.until(() => server.admission.running === 0 && server.admission.waiting === 0);
  });

  it('a request whose client leaves while it waits never reaches the handler, and the next one takes its turn', async () => {
    const server = await heldServer({ limit: 1, releaseAfterMs: 60_000 });
    const { answer: first } = await server.send('first');
    const leaving = new AbortController();
    const { answer: left } = await server.send('left', leaving.signal);
    const { answer: next } = await server.send('next');
    leaving.abort();
    await expect(left).rejects.toThrow();
    await server.until(() => server.admission.waiting === 1);

    await server.release('first');
    await server.release('next');
    expect([await first, await next]).toEqual(['first', 'next']);
    expect(server.seen).toEqual(['first', 'next']);
  });

  it('a request holding its slot past releaseAfterMs gives it to the next one, and still completes', async () => {
    const server = await heldServer({ limit: 1, releaseAfterMs: 50 });
    const { answer: slow } = await server.send('slow');
    const { answer: quick } = await server.send('quick');
    await server.until(() => server.seen.includes('quick'));
    await server.release('quick');
    expect(await quick).toBe('quick');
    expect(server.seen).toEqual(['slow', 'quick']);

    await server.release('slow');
    expect(await slow).toBe('slow');
  });

  it('a limit of 0 lets every request in as it arrives', async () => {
    const server = await heldServer({ limit: 0, releaseAfterMs: 50 });
    const answers = [];
    for (const id of ['a', 'b', 'c']) answers.push(fetch(`${server.url}/${id}`).then((r) => r.text()));
    await server.until(() => server.seen.length === 3);
    for (const id of ['a', 'b', 'c']) await server.release(id);
    expect((await Promise.all(answers)).sort()).toEqual(['a', 'b', 'c']);
    expect(server.maxConcurrent()).toBe(3);
  });

  it("a request's arrival is when it reached the server, so the time it waited for a slot counts in its duration", async () => {
    const server = await heldServer({ limit: 1, releaseAfterMs: 60_000 });
    const { answer: first } = await server.send('first');
    const { answer: second } = await server.send('second');
    await new Promise((r) => setTimeout(r, 100));
    await server.release('first');
    await server.release('second');
    await Promise.all([first, second]);
    expect(server.waitedMs.get('first')!).toBeLessThan(50);
    expect(server.waitedMs.get('second')!).toBeGreaterThanOrEqual(95);
  });

  it('past maxWaiting waiting requests the next is refused at once, never reaching the handler, and those waiting still run', async () => {
    const server = await heldServer({ limit: 1, releaseAfterMs: 60_000, maxWaiting: 2 });
    const answers = [];
    for (const id of ['a', 'b', 'c']) answers.push((await server.send(id)).answer);
    const refusedAnswer = await fetch(`${server.url}/d`);
    expect([refusedAnswer.status, await refusedAnswer.text()]).toEqual([503, 'refused']);
    expect(server.refused).toEqual(['d']);
    expect([server.admission.running, server.admission.waiting]).toEqual([1, 2]);

    for (const id of ['a', 'b', 'c']) await server.release(id);
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c']);
    expect(server.seen).toEqual(['a', 'b', 'c']);
    // Room again: the next request runs.
    const { answer } = await server.send('e');
    await server.release('e');
    expect(await answer).toBe('e');
  });

  it('a maxWaiting of 0 refuses every request that finds the slots taken', async () => {
    const server = await heldServer({ limit: 1, releaseAfterMs: 60_000, maxWaiting: 0 });
    const { answer } = await server.send('a');
    expect((await fetch(`${server.url}/b`)).status).toBe(503);
    await server.release('a');
    expect(await answer).toBe('a');
    expect(server.refused).toEqual(['b']);
  });

  it('a request it bypasses runs at once, whatever runs and waits, and takes no slot', async () => {
    const server = await heldServer({ limit: 1, releaseAfterMs: 60_000, maxWaiting: 0, bypasses: (req) => req.url === '/probe' });
    const { answer } = await server.send('a');
    const probe = fetch(`${server.url}/probe`).then((r) => r.text());
    await server.until(() => server.seen.includes('probe'));
    expect([server.admission.running, server.admission.waiting]).toEqual([1, 0]);
    await server.release('probe');
    expect(await probe).toBe('probe');
    await server.release('a');
    expect(await answer).toBe('a');
    expect(server.refused).toEqual([]);
  });
});
