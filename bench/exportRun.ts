import type { LoadResult } from './loadRun.ts';

/**
 * One client downloading the whole audit log through GET /v1/audit/export, reading as fast as it can: the events per
 * second it got and the time the whole export took (as p50 and p99, one sample). Every line is parsed, so a cut or
 * malformed stream fails the row instead of passing as fast.
 */
export async function runExport(url: string, expectedEvents: number): Promise<LoadResult> {
  const started = performance.now();
  const response = await fetch(`${url}/v1/audit/export`);
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let events = 0;
  let rest = '';
  let lastId = 0;
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const id = (JSON.parse(line) as { id: number }).id;
      if (id <= lastId) throw new Error(`export out of order: ${id} after ${lastId}`);
      lastId = id;
      events += 1;
    }
  }
  const ms = performance.now() - started;
  const errors = events >= expectedEvents && rest === '' ? 0 : 1;
  return { requests: events, errors, seconds: ms / 1000, rps: events / (ms / 1000), p50: ms, p99: ms };
}
