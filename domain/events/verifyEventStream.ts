import { idOfSequence } from './cloudEvent.ts';
import { chainHashOf, type ReceivedCloudEvent } from './chainHash.ts';

/** The newest event a receiver saw (its sequence, or id, and chain hash): what a later copy must still reach. */
export interface SeenHead {
  id: number;
  chainhash: string;
}

export interface StreamVerdict {
  ok: boolean;
  /** Distinct events checked. */
  checked: number;
  /** Events whose chain hash does not follow from their content and predecessor's hash (altered), by id. */
  mismatches: number[];
  /**
   * Where the chain is broken between two received events (one or more events between them are missing), or after
   * the last one when the head a receiver saw is further on: `before_id` absent then, `through_id` the head.
   */
  gaps: { after_id: number | null; before_id?: number; through_id?: number }[];
  /** Ids received more than once with the same content: deliveries repeated, as at-least-once delivery may. */
  duplicates: number[];
  first_id?: number;
  last_id?: number;
}

export interface VerifyOptions {
  /**
   * The copy holds a filtered part of the log (some types or one tenant): events between the received ones are
   * expected, so only each event's own hash and the order are checked, not that each follows the one before.
   */
  filtered?: boolean;
  head?: SeenHead;
}

/**
 * A copy of the log's events (an export, a feed's pages, a webhook receiver's captures) checked against the chain:
 * every event's hash is recomputed from its content and `chainprev`; each event must follow the one before it (the
 * previous one's `chainhash` is its `chainprev`), else a gap is named between them; a repeated id with the same hash
 * is a duplicate delivery, with another content a mismatch; and the newest event received must reach the head a
 * receiver saw before, which catches a removal of the newest events.
 */
export function verifyEventStream(received: ReceivedCloudEvent[], options: VerifyOptions = {}): StreamVerdict {
  const byId = new Map<number, ReceivedCloudEvent>();
  const duplicates = new Set<number>();
  const mismatches = new Set<number>();
  for (const event of received) {
    const id = idOfSequence(String(event.id));
    if (id === undefined) throw new Error(`an event's id is not a sequence of the log: ${JSON.stringify(event.id)}`);
    const earlier = byId.get(id);
    if (!earlier) byId.set(id, event);
    else if (earlier.chainhash === event.chainhash && chainHashOf(event.chainprev, event) === chainHashOf(earlier.chainprev, earlier)) duplicates.add(id);
    else mismatches.add(id);
  }
  const ids = [...byId.keys()].sort((a, b) => a - b);
  const gaps: StreamVerdict['gaps'] = [];
  let previous: { id: number; event: ReceivedCloudEvent } | undefined;
  for (const id of ids) {
    const event = byId.get(id)!;
    if (chainHashOf(event.chainprev, event) !== event.chainhash) mismatches.add(id);
    if (!options.filtered && previous && event.chainprev !== previous.event.chainhash) gaps.push({ after_id: previous.id, before_id: id });
    previous = { id, event };
  }
  const head = options.head;
  if (head) {
    const last = ids.at(-1);
    if (last === undefined || last < head.id) gaps.push({ after_id: last ?? null, through_id: head.id });
    else if (byId.has(head.id) && byId.get(head.id)!.chainhash !== head.chainhash) mismatches.add(head.id);
  }
  const verdict: StreamVerdict = {
    ok: mismatches.size === 0 && gaps.length === 0,
    checked: ids.length,
    mismatches: [...mismatches].sort((a, b) => a - b),
    gaps,
    duplicates: [...duplicates].sort((a, b) => a - b),
  };
  if (ids.length > 0) Object.assign(verdict, { first_id: ids[0], last_id: ids.at(-1) });
  return verdict;
}
