import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { startTestService, uniqueSlug, type TestService } from '../../support/testService.ts';

/** A directory's SCIM discovery, and the endpoint's answers outside its resources, on a service with AUTH_ENABLED. */
let service: TestService;
let issuer: OidcIssuer;
let admin: Record<string, string>;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  service = await startTestService({}, { authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
  admin = { authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: 'scim-test', scope: 'registry:admin' })}` };
});
afterAll(async () => {
  await service?.close();
  await issuer?.close();
});

async function newDirectory() {
  const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('scimd'), name: 'SCIM discovery' }, admin)).body.tenant as { id: string };
  const directory = (await service.request('POST', `/v1/tenants/${tenant.id}/directories`, {}, admin)).body as { id: string; token: string };
  const scim = (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${directory.token}` }) =>
    service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) });
  return { directory, scim };
}

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

describe('SCIM discovery', () => {
  it("with AUTH_ENABLED the endpoint takes the directory's own token, and refuses the registry's service token with SCIM's 401", async () => {
    const { scim } = await newDirectory();
    expect((await scim('GET', '/ServiceProviderConfig')).body).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 200 } });
    const refused = await scim('GET', '/ServiceProviderConfig', undefined, admin);
    expect(refused).toMatchObject({ status: 401, body: { schemas: [ERROR_SCHEMA], status: '401' } });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers one resource type by its id and one schema by its URN; an unknown one is a SCIM 404', async () => {
    const { scim } = await newDirectory();
    expect((await scim('GET', '/ResourceTypes/User')).body).toMatchObject({ id: 'User', endpoint: '/Users', schema: 'urn:ietf:params:scim:schemas:core:2.0:User' });
    expect((await scim('GET', '/ResourceTypes/Group')).body).toMatchObject({ id: 'Group', endpoint: '/Groups' });
    const schema = await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:Group');
    expect(schema.body.attributes.map((a: { name: string }) => a.name)).toEqual(['displayName', 'externalId', 'members']);
    expect(await scim('GET', '/ResourceTypes/Device')).toMatchObject({ status: 404, body: { schemas: [ERROR_SCHEMA], status: '404' } });
    expect(await scim('GET', '/Schemas/urn:example:nothing')).toMatchObject({ status: 404, body: { schemas: [ERROR_SCHEMA] } });
  });

  it("answers an unknown path beneath the endpoint, a malformed directory id and a method it does not serve in SCIM's error body, never the registry's", async () => {
    const { scim } = await newDirectory();
    expect(await scim('GET', '/Devices/1')).toMatchObject({ status: 404, body: { schemas: [ERROR_SCHEMA], status: '404' } });
    expect(await service.request('GET', '/scim/v2/directories/not-a-uuid/Users')).toMatchObject({ status: 400, body: { schemas: [ERROR_SCHEMA], status: '400', scimType: 'invalidValue' } });
    const notServed = await scim('DELETE', '/ServiceProviderConfig');
    expect(notServed).toMatchObject({ status: 405, body: { schemas: [ERROR_SCHEMA], status: '405' } });
    expect(notServed.headers.get('allow')).toBe('GET, HEAD');
  });

  it("answers a search across resource types (POST /.search) with SCIM's 501: each type has its own /.search", async () => {
    const { scim } = await newDirectory();
    const res = await scim('POST', '/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] });
    expect(res).toMatchObject({ status: 501, body: { schemas: [ERROR_SCHEMA], status: '501' } });
  });
});
