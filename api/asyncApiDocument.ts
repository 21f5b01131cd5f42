import { catalogEntries, dataSchemaOf, APPLICATION_EVENT_TYPE } from '../domain/events/eventCatalog.ts';
import { CLOUD_EVENT_SOURCE } from '../domain/events/cloudEvent.ts';

const CHANNEL = 'events';

/**
 * The event catalog as an AsyncAPI 3.0 document (GET /asyncapi.json): one message per event type, named by the type,
 * its payload the JSON Schema of the CloudEvent's `data` (the event's metadata), made from the zod schema that
 * validates it. One channel, the log's events, which GET /v1/events pages through and webhook endpoints receive.
 */
export function buildAsyncApiDocument() {
  const entries = catalogEntries();
  const messages = Object.fromEntries(
    entries.map(({ name, definition }) => {
      const { $schema: _draft, ...payload } = dataSchemaOf(definition);
      const application = name === APPLICATION_EVENT_TYPE;
      return [
        name,
        {
          name,
          title: name,
          summary: definition.summary,
          description: application
            ? 'Any event type outside the service\'s own prefixes is a caller\'s (POST /v1/audit): the CloudEvent\'s `type` is its action, `data` its metadata.'
            : `The \`data\` of a CloudEvent (source \`${CLOUD_EVENT_SOURCE}\`) whose \`type\` is \`${name}\`.`,
          contentType: 'application/json',
          payload,
        },
      ];
    }),
  );
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Tenant Registry events',
      version: '0.4.0',
      description:
        "Every audit action of the registry is an event type. Each event is a CloudEvent 1.0 (JSON format) with the extensions `sequence` (its place in the audit log's hash chain, zero-padded), `chainhash` (its hash) and `chainprev` (the hash before it), and the audit fields as extension attributes; its `data` is the event's metadata, described by the message of its type. Read them with GET /v1/events, or receive them at a webhook endpoint; verify a copy with `npm run verify-events`.",
    },
    defaultContentType: 'application/json',
    channels: {
      [CHANNEL]: {
        address: '/v1/events',
        title: "The audit log's events",
        description: 'Oldest first by sequence; filtered by types and tenant.',
        messages: Object.fromEntries(entries.map(({ name }) => [name, { $ref: `#/components/messages/${name}` }])),
      },
    },
    operations: {
      receiveEvents: {
        action: 'receive',
        channel: { $ref: `#/channels/${CHANNEL}` },
        summary: "A product receives a tenant's events: from the feed, or at its webhook endpoint.",
        messages: entries.map(({ name }) => ({ $ref: `#/channels/${CHANNEL}/messages/${name}` })),
      },
    },
    components: { messages },
  };
}
