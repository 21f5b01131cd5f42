import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_URI_BYTES } from '../../api/middleware/uriLimit.ts';
import { MAX_HEADER_BYTES } from '../../platform/httpServer.ts';
import { startTestService, type TestService } from '../support/testService.ts';

/** An over-long request is refused before any route reads it, with a status every operation declares. */
let service: TestService;
let document: any;
beforeAll(async () => {
  service = await startTestService();
  document = (await service.request('GET', '/openapi.json')).body;
});
afterAll(() => service.close());

describe('request limits', () => {
  it('a request target over MAX_URI_BYTES is 414 with the Error body; beneath the SCIM endpoint with its error body as application/scim+json', async () => {
    const long = 'a'.repeat(MAX_URI_BYTES);
    const registry = await service.request('GET', `/v1/tenants?cursor=${long}`);
    expect(registry).toMatchObject({ status: 414, body: { error: 'uri_too_long' } });
    const scim = await service.request('GET', `/scim/v2/directories/00000000-0000-4000-8000-000000000001/Users?filter=${long}`);
    expect(scim).toMatchObject({ status: 414, body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '414' } });
    expect(scim.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    // The longest query a SCIM list takes (three texts of 1,000 characters of 4 UTF-8 bytes each) is read.
    const widest = encodeURIComponent('\u{10428}'.repeat(1000));
    const read = await service.request('GET', `/scim/v2/directories/00000000-0000-4000-8000-000000000001/Users?filter=${widest}&attributes=${widest}&excludedAttributes=${widest}`);
    expect(read.status).toBe(401);
  });

  it('a head over MAX_HEADER_BYTES is 431', async () => {
    const res = await service.request('GET', '/healthz', undefined, { 'x-padding': 'a'.repeat(MAX_HEADER_BYTES) });
    expect(res.status).toBe(431);
  });

  it('every operation declares 414 and 431, and 413 where it reads a body; SCIM operations in application/scim+json', () => {
    for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        // Verify reads its body itself and answers any it cannot read as an invalid key, never 4xx.
        const checksBody = operation.requestBody && operation.operationId !== 'verifyApiKey';
        expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['414', '431', ...(checksBody ? ['413'] : [])]));
        if (!path.startsWith('/scim/')) continue;
        for (const [status, response] of Object.entries(operation.responses as Record<string, { content?: Record<string, unknown> }>)) {
          if (response.content) expect(Object.keys(response.content), `${method} ${path} ${status}`).toEqual(['application/scim+json']);
        }
        if (operation.requestBody) expect(Object.keys(operation.requestBody.content).sort()).toEqual(['application/json', 'application/scim+json']);
      }
    }
  });
});
