import { z } from 'zod';
import { buildAsyncApiDocument } from '../../asyncApiDocument.ts';
import { defineRoute } from '../../routing/routeDefinition.ts';

const document = JSON.stringify(buildAsyncApiDocument());

export const getAsyncApiDocumentRoute = defineRoute({
  method: 'get',
  path: '/asyncapi.json',
  operationId: 'getAsyncApiDocument',
  access: 'events:read',
  summary:
    "The event catalog as an AsyncAPI 3.0 document: one message per event type, named by the type, its payload the JSON Schema of the CloudEvent's data (the event's metadata)",
  tags: ['events'],
  extension: true,
  responses: {
    200: { description: 'the AsyncAPI 3.0 document', schema: z.record(z.string(), z.unknown()).meta({ id: 'AsyncApiDocument' }) },
  },
  handler: async () => ({ status: 200, jsonText: document }),
});
