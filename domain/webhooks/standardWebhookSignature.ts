import { createHmac } from 'node:crypto';

/** One message as Standard Webhooks signs it: its id (the same on every retry), the second it is sent, its exact body. */
export interface SignedMessage {
  id: string;
  /** Unix seconds, taken at each attempt, so a receiver's tolerance window holds for a retry too. */
  timestamp: number;
  body: string;
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, once
 * per key, space-separated, so a receiver holding any one of the keys (a rotation's old one or new one) verifies it.
 */
export function standardWebhookSignature(message: SignedMessage, keys: readonly Buffer[]): string {
  const content = `${message.id}.${message.timestamp}.${message.body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(content).digest('base64')}`).join(' ');
}

/** The three headers of a signed delivery (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
export const standardWebhookHeaders = (message: SignedMessage, keys: readonly Buffer[]): Record<string, string> => ({
  'webhook-id': message.id,
  'webhook-timestamp': String(message.timestamp),
  'webhook-signature': standardWebhookSignature(message, keys),
});
