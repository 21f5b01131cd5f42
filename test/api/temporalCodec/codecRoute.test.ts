import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, type TestService } from '../../support/testService.ts';

/** A payload as the Web UI sends it to /codec/encode: the JSON of a signal's input, in the remote codec's JSON form. */
const plainPayload = (value: unknown) => {
  const payload = defaultPayloadConverter.toPayload(value)!;
  return {
    metadata: Object.fromEntries(Object.entries(payload.metadata!).map(([key, bytes]) => [key, Buffer.from(bytes).toString('base64')])),
    data: Buffer.from(payload.data!).toString('base64'),
  };
};
const input = { requested_by: 'ops@example.com' };

let issuer: OidcIssuer;
let scoped: TestService;
let lenient: TestService;
let closed: TestService;
let opened: TestService;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  scoped = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  lenient = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer, AUTH_REQUIRE_SCOPES: 'false' }) });
  closed = await startTestService();
  opened = await startTestService({ CODEC_ENDPOINT_ENABLED: true });
});
afterAll(async () => {
  for (const service of [scoped, lenient, closed, opened]) await service?.close();
  await issuer?.close();
});

const bearer = async (scope: string) => ({ authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'web-ui', scope })}` });

/** Encodes the input through the endpoint and decodes the result back, as the Web UI does; answers both responses. */
async function roundTrip(service: TestService, headers: Record<string, string> = {}) {
  const encoded = await service.request('POST', '/codec/encode', { payloads: [plainPayload(input)] }, headers);
  const decoded = encoded.status === 200 ? await service.request('POST', '/codec/decode', encoded.body, headers) : undefined;
  return { encoded, decoded };
}

describe('the codec endpoint with authentication on', () => {
  it('needs registry:admin: 401 without a token, 403 with any other scope, and encodes and decodes with it', async () => {
    for (const path of ['/codec/encode', '/codec/decode']) {
      expect((await scoped.request('POST', path, { payloads: [] })).status, path).toBe(401);
      const other = await scoped.request('POST', path, { payloads: [] }, await bearer('tenants:read tenants:write provisioning:operate audit:read'));
      expect(other.status, path).toBe(403);
      expect(other.body).toMatchObject({ error: 'forbidden', message: expect.stringContaining('registry:admin') });
    }
    const { encoded, decoded } = await roundTrip(scoped, await bearer('registry:admin'));
    expect(encoded.status).toBe(200);
    expect(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('binary/encrypted');
    expect(decoded?.status).toBe(200);
    expect(JSON.parse(Buffer.from(decoded!.body.payloads[0].data, 'base64').toString())).toEqual(input);
  });

  it('still needs registry:admin with AUTH_REQUIRE_SCOPES=false, which lets the same token call every other route', async () => {
    const unscoped = await bearer('');
    expect((await lenient.request('GET', '/v1/catalog', undefined, unscoped)).status).toBe(200);
    for (const path of ['/codec/encode', '/codec/decode']) {
      const refused = await lenient.request('POST', path, { payloads: [plainPayload(input)] }, unscoped);
      expect(refused.status, path).toBe(403);
    }
    expect((await roundTrip(lenient, await bearer('registry:admin'))).decoded?.status).toBe(200);
  });

  it('decodes to show: a payload that is not encrypted comes back as it is, beside the decrypted ones (the worker refuses it)', async () => {
    const admin = await bearer('registry:admin');
    const sealed = (await scoped.request('POST', '/codec/encode', { payloads: [plainPayload(input)] }, admin)).body.payloads[0];
    const shown = await scoped.request('POST', '/codec/decode', { payloads: [plainPayload('marker data'), sealed] }, admin);
    expect(shown.status).toBe(200);
    expect(shown.body.payloads).toEqual([plainPayload('marker data'), plainPayload(input)]);
  });
});

describe('the codec endpoint with authentication off', () => {
  it('is off unless CODEC_ENDPOINT_ENABLED: 404 with the Error body naming the setting, for decode and encode', async () => {
    const sealed = (await roundTrip(opened)).encoded.body;
    for (const [path, body] of [['/codec/encode', { payloads: [plainPayload(input)] }], ['/codec/decode', sealed]] as const) {
      const refused = await closed.request('POST', path, body);
      expect(refused.status, path).toBe(404);
      expect(refused.body, path).toEqual({ error: 'not_found', message: expect.stringContaining('CODEC_ENDPOINT_ENABLED') });
    }
  });

  it('with CODEC_ENDPOINT_ENABLED=true serves anyone who reaches it', async () => {
    const { encoded, decoded } = await roundTrip(opened);
    expect(encoded.status).toBe(200);
    expect(JSON.parse(Buffer.from(decoded!.body.payloads[0].data, 'base64').toString())).toEqual(input);
  });
});
