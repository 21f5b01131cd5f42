/**
 * An audit event as the events feed, its export and webhooks carry it: a CloudEvent 1.0 in its JSON format.
 *
 * `data` is the event's metadata, as the text PostgreSQL stores it (so a receiver can recompute the chain's hash from
 * the bytes it received); the other fields the chain's hash covers ride as extension attributes. `sequence` is the
 * event's place in the chain (its id, zero-padded so that text order is chain order, as the CloudEvents sequence
 * extension asks), `chainhash` its hash and `chainprev` the hash of the event before it in the chain, whichever
 * tenant that one belonged to: with both, one event is verified on its own, and a run of events is proved whole
 * (domain/events/verifyEventStream.ts).
 */

/**
 * An event's CloudEvent as the database rendered it when the event was appended
 * (Migration20261209000047AuditRenderedOnce): always the same bytes, so a page of the feed is answered again byte for
 * byte, and a webhook's signature covers exactly this text. `subject` is the tenant the event belongs to.
 */
export interface RenderedCloudEvent {
  id: string | number;
  cloud_event: string;
}

/** The CloudEvent as a receiver parses it. */
export interface CloudEvent {
  specversion: '1.0';
  id: string;
  source: string;
  type: string;
  time: string;
  subject?: string;
  datacontenttype: 'application/json';
  data?: Record<string, unknown>;
  sequence: string;
  chainhash: string;
  chainprev: string;
  projectid?: string;
  actorid?: string;
  actorname?: string;
  actortype?: string;
  targetid?: string;
  targettype?: string;
  targetname?: string;
  product?: string;
  sourceip?: string;
  useragent?: string;
  recordedby?: string;
}

/** The `source` of every event: the registry (an event's id is unique within it). */
export const CLOUD_EVENT_SOURCE = 'urn:tenant-registry';

/** Digits of `sequence`: a bigint's 19 and one more, so text order stays chain order for every id. */
const SEQUENCE_DIGITS = 20;

export const sequenceOf = (id: number | string): string => String(id).padStart(SEQUENCE_DIGITS, '0');

/** The id a `sequence` (or a plain decimal id) names, or undefined for anything else. */
export function idOfSequence(sequence: string): number | undefined {
  if (!/^\d{1,20}$/.test(sequence)) return undefined;
  const id = Number(sequence);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** The audit fields besides tenant, type, time and data, by the extension attribute that carries each. */
export const EXTENSION_OF_FIELD = {
  'project_id': 'projectid',
  'actor_id': 'actorid',
  'actor_name': 'actorname',
  'actor_type': 'actortype',
  'target_id': 'targetid',
  'target_type': 'targettype',
  'target_name': 'targetname',
  'product': 'product',
  'source_ip': 'sourceip',
  'user_agent': 'useragent',
  'recorded_by': 'recordedby',
} as const;
