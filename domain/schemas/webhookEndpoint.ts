import { z } from 'zod';
import { DateTime, Uuid } from './common.ts';

const Url = z.url({ protocol: /^https?$/ }).max(2000).meta({ description: 'http or https; the address rule of audit streams applies (AUDIT_STREAM_ALLOWED_HOSTS)' });
const EventTypes = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(100)
  .meta({ description: 'the event types delivered, each one of the catalog (GET /asyncapi.json)' });

export const WebhookEndpointState = z
  .enum(['active', 'failing', 'disabled'])
  .meta({ description: 'active: delivering; failing: the last attempt failed and is retried with backoff; disabled: nothing is delivered (3 days of failures, or set so)' });

export const WebhookEndpointCreate = z
  .strictObject({
    url: Url,
    types: EventTypes,
    tenant_id: Uuid.optional().meta({ description: "only this tenant's events" }),
  })
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;

export const WebhookEndpointChange = z
  .strictObject({
    url: Url.optional(),
    types: EventTypes.optional(),
    state: z
      .enum(['active', 'disabled'])
      .optional()
      .meta({ description: 'disabled stops delivery; active resumes it where it stood (a failing endpoint is retried at once)' }),
  })
  .meta({ id: 'WebhookEndpointChange' });
export type WebhookEndpointChange = z.infer<typeof WebhookEndpointChange>;

export const WebhookReplay = z
  .strictObject({
    from_sequence: z
      .union([z.string().regex(/^\d{1,20}$/, 'must be a sequence: decimal digits'), z.int().min(0).max(Number.MAX_SAFE_INTEGER)])
      .meta({ description: "the first sequence delivered again: a CloudEvent's `sequence` (or its number); 0 replays from the log's start" }),
  })
  .meta({ id: 'WebhookReplay' });
export type WebhookReplay = z.infer<typeof WebhookReplay>;

export const WebhookEndpoint = z
  .object({
    id: Uuid,
    url: z.string(),
    types: z.array(z.string()),
    tenant_id: Uuid.optional(),
    state: WebhookEndpointState,
    last_delivered_sequence: z
      .string()
      .regex(/^\d{20}$/)
      .meta({ description: "where delivery stands, as a CloudEvent's `sequence`: the newest event delivered (at creation, the newest event of the log then)" }),
    created_at: DateTime,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ description: 'the whsec_ signing secret (Standard Webhooks), returned this once' }),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const WebhookSecretRotated = WebhookEndpointWithSecret.extend({
  previous_secret_expires_at: DateTime.meta({ description: 'until then the previous secret signs every delivery too' }),
}).meta({ id: 'WebhookSecretRotated' });

export const WebhookEndpointList = z.object({ items: z.array(WebhookEndpoint) }).meta({ id: 'WebhookEndpointList' });
