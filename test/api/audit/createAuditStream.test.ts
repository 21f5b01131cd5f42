import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemHostResolver } from '../../../platform/hostResolver.ts';
import { startTestService, type TestService } from '../../support/testService.ts';

const SECRET = 'stream-secret-of-the-test-0123456789';
const system = systemHostResolver(2_000);
/** The test's DNS for a few names under .test; every other name goes to the system resolver. */
const ANSWERS: Record<string, string[]> = { 'intranet.test': ['10.0.0.8'], 'loopback.test': ['::1'], 'siem.test': ['93.184.215.14'] };

let open: TestService;
let restricted: TestService;
beforeAll(async () => {
  open = await startTestService({}, { resolveHost: async (host) => ANSWERS[host] ?? system(host) });
  restricted = await startTestService({ AUDIT_STREAM_ALLOWED_HOSTS: ['127.0.0.1', 'localhost'] });
});
afterAll(async () => {
  await open?.close();
  await restricted?.close();
});

describe('POST /v1/audit/streams', () => {
  it('without AUDIT_STREAM_ALLOWED_HOSTS refuses loopback, private, link-local and metadata targets, literal or resolved, with 400 saying why', async () => {
    const refused: [string, RegExp][] = [
      ['http://127.0.0.1:9000/siem', /127\.0\.0\.1 is a loopback address/],
      ['http://[::1]:9000/siem', /::1 is a loopback address/],
      ['http://10.1.2.3/siem', /10\.1\.2\.3 is a private address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a cloud metadata address/],
      ['http://localhost:9000/siem', /localhost is a loopback name/],
      ['http://metadata.google.internal/computeMetadata/v1/', /cloud metadata name/],
      ['https://intranet.test/siem', /intranet\.test resolves to 10\.0\.0\.8, a private address/],
      ['https://loopback.test/siem', /loopback\.test resolves to ::1, a loopback address/],
    ];
    for (const [url, why] of refused) {
      const res = await open.request('POST', '/v1/audit/streams', { url, secret: SECRET });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ error: 'invalid_input', message: expect.stringMatching(why) });
      expect(res.body.message, url).toMatch(/AUDIT_STREAM_ALLOWED_HOSTS/);
    }
    const stream = await open.request('POST', '/v1/audit/streams', { url: 'https://siem.test/ingest', secret: SECRET });
    expect(stream.status).toBe(201);
    expect((await open.request('DELETE', `/v1/audit/streams/${stream.body.id}`)).status).toBe(204);
  });

  it('with AUDIT_STREAM_ALLOWED_HOSTS takes a host it names whatever it resolves to, and no other', async () => {
    for (const url of ['http://127.0.0.1:9000/siem', 'http://localhost:9000/siem']) {
      const stream = await restricted.request('POST', '/v1/audit/streams', { url, secret: SECRET });
      expect(stream.status, url).toBe(201);
      expect((await restricted.request('DELETE', `/v1/audit/streams/${stream.body.id}`)).status).toBe(204);
    }
    const other = await restricted.request('POST', '/v1/audit/streams', { url: 'http://10.1.2.3/siem', secret: SECRET });
    expect(other.status).toBe(400);
    expect(other.body.message).toMatch(/10\.1\.2\.3 is not in AUDIT_STREAM_ALLOWED_HOSTS/);
  });
});
