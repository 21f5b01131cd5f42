import type { Context } from 'koa';

/** What the JSON floors answer: verify's answer to a valid key, in shape and size. */
export const VERIFY_LIKE_ANSWER = { valid: true, tenant_id: '00000000-0000-4000-8000-000000000000', scopes: ['read'] };

const event = (i: number) => ({
  id: 1_000_000 - i,
  action: 'billing.invoice_paid',
  created_at: '2026-11-22T12:00:00.000Z',
  tenant_id: '00000000-0000-4000-8000-000000000000',
  actor_id: `actor-${i}`,
  actor_type: 'user',
  target_id: `invoice-${i}`,
  target_type: 'invoice',
  product: 'analytics',
  metadata: { amount: 1200 + i, currency: 'EUR' },
  source_ip: '10.0.0.1',
  user_agent: 'bench/1.0',
  hash: 'f'.repeat(64),
});

/** A fixed page of 50 audit events, the size of the service's pages. */
export const FIXED_PAGE = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => event(i)), next_cursor: 999_950 });

/** Reads and parses a JSON body like verify's or claims', then answers a fixed one. */
export async function answerJsonBody(ctx: Context): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { key?: unknown };
  ctx.body = typeof parsed === 'object' && parsed !== null ? VERIFY_LIKE_ANSWER : { valid: false };
}
