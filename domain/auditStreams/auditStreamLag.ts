import type { AuditRepository } from '../audit/auditRepository.ts';
import type { AuditEvent } from '../schemas/audit.ts';
import type { AuditStreamRepository } from './auditStreamRepository.ts';

export interface AuditStreamLag {
  streamId: string;
  /** Age of the oldest event the stream should carry and has not delivered yet; 0 when it is caught up. */
  oldestUndeliveredSeconds: number;
}

/** Bound on each look-up, so a scrape that asks never waits long on a slow database. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * How far each live audit stream lags: the first event after its recorded progress that its filter takes (the event
 * its delivery waits on), read the way delivery reads it. A failing receiver, or no worker delivering, shows as an
 * age that grows.
 */
export async function auditStreamLag(streams: AuditStreamRepository, audit: AuditRepository, now: Date): Promise<AuditStreamLag[]> {
  const lags: AuditStreamLag[] = [];
  for (const stream of await streams.listActive()) {
    const [next] = await audit.answersAfter(stream.filter, stream.deliveredThroughId, 1, { statementTimeoutMs: LOOKUP_TIMEOUT_MS });
    const age = next ? (now.getTime() - Date.parse((JSON.parse(next.answer) as AuditEvent).created_at)) / 1000 : 0;
    lags.push({ streamId: stream.id, oldestUndeliveredSeconds: Math.max(0, age) });
  }
  return lags;
}
