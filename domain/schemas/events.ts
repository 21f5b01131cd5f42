import { z } from 'zod';
import { JsonObject, Uuid } from './common.ts';

export const EVENTS_DEFAULT_LIMIT = 100;
export const EVENTS_MAX_LIMIT = 500;
export const EVENTS_MAX_TYPES = 50;

/** A sequence (zero-padded or not) in a query, read as the id it names. */
const querySequence = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,20}$/.test(value) ? Number(value) : value),
  z.int().min(0).max(Number.MAX_SAFE_INTEGER),
);

export const EventFeedQuery = z
  .object({
    after: querySequence.optional().meta({ description: "a sequence: the events after it (a page's next_cursor, or the last event's sequence a receiver holds); default the log's start" }),
    types: z
      .string()
      .regex(new RegExp(`^[^,]{1,100}(,[^,]{1,100}){0,${EVENTS_MAX_TYPES - 1}}$`), `must be up to ${EVENTS_MAX_TYPES} event types separated by commas`)
      .optional()
      .meta({ description: 'event types separated by commas (exact names, as GET /asyncapi.json lists them); default every type' }),
    tenant_id: Uuid.optional(),
    limit: z
      .preprocess((value) => (typeof value === 'string' && /^\d{1,18}$/.test(value) ? Number(value) : value), z.int().min(1).max(EVENTS_MAX_LIMIT))
      .optional()
      .meta({ description: `events per page, 1 to ${EVENTS_MAX_LIMIT} (default ${EVENTS_DEFAULT_LIMIT})` }),
  })
  .meta({ id: 'EventFeedQuery' });
export type EventFeedQuery = z.infer<typeof EventFeedQuery>;

const attribute = (description: string) => z.string().optional().meta({ description });

export const CloudEventBody = z
  .object({
    specversion: z.literal('1.0'),
    id: z.string().meta({ description: "the audit event's id: a repeated delivery carries the same one" }),
    source: z.string(),
    type: z.string().meta({ description: 'the event type: the audit action (GET /asyncapi.json)' }),
    time: z.string().meta({ description: 'when it was appended, in UTC to the microsecond' }),
    subject: attribute('the tenant the event belongs to'),
    datacontenttype: z.literal('application/json'),
    data: JsonObject.optional().meta({ description: "the event's metadata, as its type's schema in GET /asyncapi.json describes it" }),
    sequence: z.string().regex(/^\d{20}$/).meta({ description: "the event's place in the chain, zero-padded: text order is chain order" }),
    chainhash: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: "hex SHA-256 over chainprev and the event's canonical content" }),
    chainprev: z.string().regex(/^[0-9a-f]{64}$/).meta({ description: 'the chainhash of the event before it in the chain (of any tenant)' }),
    projectid: attribute('project_id'),
    actorid: attribute('actor_id'),
    actorname: attribute('actor_name'),
    actortype: attribute('actor_type'),
    targetid: attribute('target_id'),
    targettype: attribute('target_type'),
    targetname: attribute('target_name'),
    product: attribute('product'),
    sourceip: attribute('source_ip'),
    useragent: attribute('user_agent'),
    recordedby: attribute('recorded_by'),
  })
  .meta({ id: 'CloudEvent', description: 'A CloudEvent 1.0 (JSON format) of one audit event, with the extensions sequence, chainhash and chainprev' });

export const EventPage = z
  .object({
    items: z.array(CloudEventBody),
    next_cursor: z.string().meta({ description: 'the sequence to pass as after for the next page; on the newest page, where to resume once more events are appended' }),
  })
  .meta({ id: 'EventPage' });
