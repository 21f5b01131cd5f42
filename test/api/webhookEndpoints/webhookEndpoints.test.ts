import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** No Temporal here: the endpoints' records and their rules, over HTTP; delivery is test/workflows/webhookDelivery/'s. */
let open: TestService;
let restricted: TestService;
beforeAll(async () => {
  open = await startTestService();
  restricted = await startTestService({ AUDIT_STREAM_ALLOWED_HOSTS: ['127.0.0.1', 'hooks.internal'] });
});
afterAll(async () => {
  await open?.close();
  await restricted?.close();
});

/** A public address literal: the rule accepts it without a DNS look-up. */
const PUBLIC_URL = 'https://93.184.215.14/hooks';

const actionsOf = async (service: TestService, targetId: string) =>
  (await service.orm.em.fork().execute<{ action: string }[]>('select action from audit_events where target_id = ? order by id', [targetId])).map((e) => e.action);

describe('webhook endpoints', () => {
  it('are created with a whsec_ secret answered that once: never listed, read back or rotated into view again', async () => {
    const created = await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['tenant.created', 'invoice.paid', 'tenant.created'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: PUBLIC_URL, types: ['tenant.created', 'invoice.paid'], state: 'active', secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) });
    expect(created.body.last_delivered_sequence).toMatch(/^\d{20}$/);
    expect(created.body.tenant_id).toBeUndefined();
    const { secret, ...shown } = created.body;
    const read = await open.request('GET', `/v1/webhook-endpoints/${created.body.id}`);
    expect(read.body).toEqual(shown);
    const listed = await open.request('GET', '/v1/webhook-endpoints');
    expect(listed.body.items).toContainEqual(shown);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const rotated = await open.request('POST', `/v1/webhook-endpoints/${created.body.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    expect(JSON.stringify((await open.request('GET', `/v1/webhook-endpoints/${created.body.id}`)).body)).not.toContain(rotated.body.secret);
    const stored = await open.orm.em.fork().execute<Record<string, string>[]>('select * from webhook_endpoints where id = ?', [created.body.id]);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));
    expect(JSON.stringify(stored)).not.toContain(rotated.body.secret.slice(6));
    expect(await actionsOf(open, created.body.id)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.secret_rotated']);
  });

  it('obey the audit streams\' address rule: without AUDIT_STREAM_ALLOWED_HOSTS a private, loopback or metadata address is 400', async () => {
    for (const [url, reason] of [
      ['http://10.1.2.3/hooks', /10\.1\.2\.3 is a private address/],
      ['http://127.0.0.1:8080/hooks', /loopback/],
      ['http://localhost/hooks', /loopback name/],
      ['http://169.254.169.254/latest', /cloud metadata/],
      ['http://[fd00::7]/hooks', /unique local/],
      ['ftp://93.184.215.14/hooks', /Invalid URL|http/],
      ['https://user:pw@93.184.215.14/hooks', /credentials/],
    ] as const) {
      const refused = await open.request('POST', '/v1/webhook-endpoints', { url, types: ['invoice.paid'] });
      expect(refused.status, url).toBe(400);
      expect(refused.body.message, url).toMatch(reason);
    }
    const endpoint = (await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['invoice.paid'] })).body;
    const moved = await open.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { url: 'http://192.168.1.10/hooks' });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toMatch(/private address/);
    expect((await open.request('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body.url).toBe(PUBLIC_URL);
  });

  it('with AUDIT_STREAM_ALLOWED_HOSTS, may point only at the hosts it names, private ones included', async () => {
    expect((await restricted.request('POST', '/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', types: ['invoice.paid'] })).status).toBe(201);
    expect((await restricted.request('POST', '/v1/webhook-endpoints', { url: 'https://HOOKS.internal/in', types: ['invoice.paid'] })).status).toBe(201);
    const refused = await restricted.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['invoice.paid'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/not in AUDIT_STREAM_ALLOWED_HOSTS/);
  });

  it('take types of the catalog only (a caller\'s own action is one), and a tenant that exists', async () => {
    const unknown = await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['invoice.paid', 'tenant.exploded'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/tenant\.exploded/);
    expect((await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: [] })).status).toBe(400);
    expect((await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['invoice.paid'], tenant_id: randomUUID() })).status).toBe(404);
    const tenant = (await open.request('POST', '/v1/tenants', { slug: uniqueSlug('hooks'), name: 'Hooks' })).body.tenant;
    const bound = await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['member.added'], tenant_id: tenant.id });
    expect(bound.status).toBe(201);
    expect(bound.body.tenant_id).toBe(tenant.id);
  });

  it('change their types and state with an audit event each, refuse what they cannot be set to, and 404 once deleted', async () => {
    const endpoint = (await open.request('POST', '/v1/webhook-endpoints', { url: PUBLIC_URL, types: ['invoice.paid'] })).body;
    const changed = await open.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { types: ['invoice.voided'], state: 'disabled' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ types: ['invoice.voided'], state: 'disabled' });
    expect((await open.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, {})).body).toEqual(changed.body);
    expect((await open.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { state: 'failing' })).status).toBe(400);
    expect((await open.request('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { state: 'active' })).body.state).toBe('active');

    for (const from of ['abc', -1, 1.5, '123456789012345678901']) {
      expect((await open.request('POST', `/v1/webhook-endpoints/${endpoint.id}/replay`, { from_sequence: from })).status, String(from)).toBe(400);
    }
    expect((await open.request('POST', `/v1/webhook-endpoints/${endpoint.id}/replay`, { from_sequence: '99999999999999999999' })).status).toBe(400);
    const replayed = await open.request('POST', `/v1/webhook-endpoints/${endpoint.id}/replay`, { from_sequence: '00000000000000000001' });
    expect(replayed.status).toBe(202);
    expect(replayed.body.last_delivered_sequence).toBe('00000000000000000000');

    expect((await open.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    for (const [method, path, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { state: 'active' }],
      ['DELETE', '', undefined],
      ['POST', '/rotate-secret', undefined],
      ['POST', '/replay', { from_sequence: 1 }],
    ] as const) {
      expect((await open.request(method, `/v1/webhook-endpoints/${endpoint.id}${path}`, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await open.request('GET', '/v1/webhook-endpoints')).body.items.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
    expect(await actionsOf(open, endpoint.id)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.updated',
      'webhook_endpoint.replay_requested',
      'webhook_endpoint.deleted',
    ]);
  });
});
