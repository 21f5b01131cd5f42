import { createHash } from 'node:crypto';
import { EXTENSION_OF_FIELD, type CloudEvent } from './cloudEvent.ts';

/**
 * The audit chain's hash recomputed outside the database, from a CloudEvent as received: the same text as the
 * database's audit_event_canonical (a jsonb array of the event's fields, in jsonb's text form) and the same
 * SHA-256 over the previous hash and that text (store/schema.sql, audit_event_hash).
 */

/** A number of `data` as its text in the received bytes: jsonb wrote it, and its digits are what the hash covers. */
export class NumberText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** A received CloudEvent, its data's numbers kept as their text. */
export type ReceivedCloudEvent = Omit<CloudEvent, 'data'> & { data?: unknown };

/** Parses a JSON text keeping every number as the text it was written as (JSON.parse's source text of a value). */
export function parseKeepingNumbers(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' ? new NumberText(context?.source ?? String(value)) : value,
  );
}

/** jsonb orders an object's keys shorter first, then by their UTF-8 bytes. */
function jsonbKeyOrder(a: string, b: string): number {
  const lengths = Buffer.byteLength(a) - Buffer.byteLength(b);
  return lengths !== 0 ? lengths : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A value as jsonb's text output writes it: `, ` between items, `: ` after keys, keys in jsonb's order. */
export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof NumberText) return value.text;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  const keys = Object.keys(value as object).sort(jsonbKeyOrder);
  return `{${keys.map((key) => `${JSON.stringify(key)}: ${jsonbText((value as Record<string, unknown>)[key])}`).join(', ')}}`;
}

const attribute = (event: ReceivedCloudEvent, field: keyof typeof EXTENSION_OF_FIELD): string | null => {
  const value = event[EXTENSION_OF_FIELD[field]];
  return typeof value === 'string' ? value : null;
};

/** The canonical text of the event the CloudEvent carries (audit_event_canonical). */
export function canonicalText(event: ReceivedCloudEvent): string {
  const fields = [
    new NumberText(String(Number(event.id))),
    event.time,
    event.type,
    event.subject ?? null,
    attribute(event, 'project_id'),
    attribute(event, 'actor_id'),
    attribute(event, 'actor_name'),
    attribute(event, 'actor_type'),
    attribute(event, 'target_id'),
    attribute(event, 'target_type'),
    attribute(event, 'target_name'),
    attribute(event, 'product'),
    event.data ?? null,
    attribute(event, 'source_ip'),
    attribute(event, 'user_agent'),
  ];
  const recordedBy = attribute(event, 'recorded_by');
  return jsonbText(recordedBy === null ? fields : [...fields, recordedBy]);
}

/** The hash the chain gives the event after `previousHash`. */
export const chainHashOf = (previousHash: string, event: ReceivedCloudEvent): string =>
  createHash('sha256').update(previousHash + canonicalText(event), 'utf8').digest('hex');
