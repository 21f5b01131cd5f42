import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { standardWebhookHeaders } from '../../../domain/webhooks/standardWebhookSignature.ts';
import { newWebhookSecret, webhookSecretKey } from '../../../domain/webhooks/webhookSecret.ts';

const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({ specversion: '1.0', id: '42', type: 'tenant.created', data: { plan: 'starter' } });

describe('Standard Webhooks signatures', () => {
  it('a whsec_ secret signs what the standardwebhooks library verifies, and nothing altered', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = standardWebhookHeaders({ id: '42', timestamp: now(), body }, [webhookSecretKey(secret)]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('starter', 'enterprise'), headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': '43' })).toThrow(/No matching signature/);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('binds the time of sending: a captured delivery replayed more than five minutes later is refused', () => {
    const secret = newWebhookSecret();
    const headers = standardWebhookHeaders({ id: '42', timestamp: now() - 3_600, body }, [webhookSecretKey(secret)]);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });

  it('signs once per key, so during a rotation a receiver holding either secret verifies', () => {
    const [previous, current] = [newWebhookSecret(), newWebhookSecret()];
    const headers = standardWebhookHeaders({ id: '7', timestamp: now(), body }, [webhookSecretKey(current), webhookSecretKey(previous)]);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toBeTruthy();
    expect(new Webhook(previous).verify(body, headers)).toBeTruthy();
  });

  it("an audit stream's secret signs as its UTF-8 bytes, which the library takes in its raw format", () => {
    const secret = 'stream-secret-of-the-test-0123456789';
    const headers = standardWebhookHeaders({ id: '9', timestamp: now(), body }, [Buffer.from(secret, 'utf8')]);
    expect(new Webhook(secret, { format: 'raw' }).verify(body, headers)).toBeTruthy();
    const accented = 'clé-de-flux-0123456789';
    const signed = standardWebhookHeaders({ id: '9', timestamp: now(), body }, [Buffer.from(accented, 'utf8')]);
    expect(new Webhook(new TextEncoder().encode(accented), { format: 'raw' }).verify(body, signed)).toBeTruthy();
  });
});
