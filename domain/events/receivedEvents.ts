import { parseKeepingNumbers, type ReceivedCloudEvent } from './chainHash.ts';

/**
 * The CloudEvents in a copy of the log, whichever form it has (what `npm run verify-events` reads): one JSON value per
 * line (NDJSON) or one JSON document, each value a CloudEvent, a page of GET /v1/events (`{items}`), an array of
 * either, or a webhook receiver's capture of a delivery: `{body, headers?}` with the body as the text received (or
 * as its JSON). Numbers are kept as the text they were written as, which the chain's hash covers.
 */
export function receivedEventsOf(text: string): ReceivedCloudEvent[] {
  const whole = text.trim();
  if (whole === '') return [];
  let values: unknown[];
  try {
    values = [parseKeepingNumbers(whole)];
  } catch {
    values = whole.split('\n').filter((line) => line.trim() !== '').map((line, index) => {
      try {
        return parseKeepingNumbers(line);
      } catch {
        throw new Error(`line ${index + 1} is not JSON`);
      }
    });
  }
  return values.flatMap(eventsIn);
}

const NOT_EVENTS = 'a value that is neither a CloudEvent, a page of GET /v1/events nor a capture (an audit export is read in format=cloudevents)';

function eventsIn(value: unknown): ReceivedCloudEvent[] {
  if (Array.isArray(value)) return value.flatMap(eventsIn);
  if (value === null || typeof value !== 'object') throw new Error(NOT_EVENTS);
  const record = value as Record<string, unknown>;
  if (record.specversion !== undefined) return [record as unknown as ReceivedCloudEvent];
  if (Array.isArray(record.items)) return record.items.flatMap(eventsIn);
  if (typeof record.body === 'string') return eventsIn(parseKeepingNumbers(record.body));
  if (record.body !== undefined) return eventsIn(record.body);
  throw new Error(NOT_EVENTS);
}
