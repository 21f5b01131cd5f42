import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** SCIM Users of a directory over HTTP, with their effects by the tenant's actor on members and the simulated provider. */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack?.close());

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);

async function newDirectory() {
  const tenant = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('scim'), name: 'SCIM' })).body.tenant as { id: string; slug: string };
  const directory = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body as { id: string; token: string };
  const scim = (method: string, path: string, body?: unknown, contentType = 'application/scim+json') =>
    stack.service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, {
      authorization: `Bearer ${directory.token}`,
      ...(body === undefined ? {} : { 'content-type': contentType }),
    });
  return { tenant, directory, scim };
}

const user = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: userName, type: 'work', primary: true }],
  active: true,
  ...extra,
});
const memberOf = async (tenantId: string, email: string) => (await sql('select user_id, status, source from members where tenant_id = ? and email = ?', [tenantId, email]))[0];
const providerUser = async (email: string) => (await sql('select id, enabled from idp_sim_users where email = ?', [email]))[0];

describe('SCIM /Users', () => {
  it('POST makes a user: 201 with id and meta; the actor makes the provider user and an active member (source directory); audited with the directory as actor', async () => {
    const { tenant, directory, scim } = await newDirectory();
    const email = `ada@${tenant.slug}.example`;
    const res = await scim('POST', '/Users', user(email, { externalId: 'ext-1' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), userName: email, externalId: 'ext-1', active: true, meta: { resourceType: 'User', location: expect.stringContaining(`/Users/${res.body.id}`) } });
    const member = await eventually(() => memberOf(tenant.id, email), 10_000, 'the member');
    expect(member).toMatchObject({ status: 'active', source: 'directory' });
    expect(await providerUser(email)).toMatchObject({ id: member!.user_id, enabled: true });
    const [created] = (await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&action=directory.user_created`)).body.items;
    expect(created).toMatchObject({ actor_id: `directory:${directory.id}`, actor_type: 'directory', target_id: res.body.id });
    expect((await scim('POST', '/Users', user(email.toUpperCase()))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('POST', '/Users', { schemas: [] })).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
  });

  it('GET filters by userName eq and externalId eq and pages by startIndex and count; an unknown id is a SCIM 404', async () => {
    const { tenant, scim } = await newDirectory();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await scim('POST', '/Users', user(`u${n}@${tenant.slug}.example`, { externalId: `e${n}` }))).body.id);
    expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "U2@${tenant.slug}.example"`)}`)).body).toMatchObject({ totalResults: 1, Resources: [{ id: ids[1] }] });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "e3"')}`)).body).toMatchObject({ totalResults: 1, Resources: [{ id: ids[2] }] });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody"')}`)).body).toMatchObject({ totalResults: 0, Resources: [] });
    const page = (await scim('GET', '/Users?startIndex=2&count=1')).body;
    expect(page).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1, Resources: [{ id: ids[1] }] });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('name.familyName co "x"')}`)).body).toMatchObject({ status: '400', scimType: 'invalidFilter' });
    expect((await scim('GET', `/Users/${ids[0]}`)).body.id).toBe(ids[0]);
    expect((await scim('GET', '/Users/00000000-0000-4000-8000-000000000099')).body).toMatchObject({ status: '404' });
  });

  it("PATCH in Okta's form (replace with path) and Entra's (capitalised op, no path, \"False\") deactivates the member and disables the provider user; PUT active reactivates", async () => {
    const { tenant, scim } = await newDirectory();
    const email = `okta@${tenant.slug}.example`;
    const id = (await scim('POST', '/Users', user(email))).body.id as string;
    await eventually(async () => (await memberOf(tenant.id, email))?.status === 'active', 10_000, 'the member');
    const okta = await scim('PATCH', `/Users/${id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(okta).toMatchObject({ status: 200, body: { active: false } });
    await eventually(async () => (await memberOf(tenant.id, email))?.status === 'inactive', 10_000, 'the member deactivated');
    await eventually(async () => (await providerUser(email))?.enabled === false, 10_000, 'the provider user disabled');
    const put = await scim('PUT', `/Users/${id}`, user(email, { active: true }));
    expect(put.body.active).toBe(true);
    await eventually(async () => (await memberOf(tenant.id, email))?.status === 'active', 10_000, 'the member active again');
    await eventually(async () => (await providerUser(email))?.enabled === true, 10_000, 'the provider user enabled');
    const entra = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Replace', value: { active: 'False', displayName: 'Ada L.' } }],
    });
    expect(entra).toMatchObject({ status: 200, body: { active: false, displayName: 'Ada L.' } });
    await eventually(async () => (await memberOf(tenant.id, email))?.status === 'inactive', 10_000, 'deactivated again');
    const actions = ((await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=100`)).body.items as { action: string }[]).map((e) => e.action).reverse();
    expect(actions.filter((a) => a.startsWith('directory.'))).toEqual(['directory.created', 'directory.user_created', 'directory.user_deactivated', 'directory.user_updated', 'directory.user_deactivated']);
  });

  it('DELETE removes the member; the user is gone from the endpoint', async () => {
    const { tenant, scim } = await newDirectory();
    const email = `gone@${tenant.slug}.example`;
    const id = (await scim('POST', '/Users', user(email))).body.id as string;
    await eventually(() => memberOf(tenant.id, email), 10_000, 'the member');
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
    await eventually(async () => (await memberOf(tenant.id, email)) === undefined, 10_000, 'the member removed');
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(404);
  });
});

describe('SCIM /Users attributes', () => {
  it('attributes and excludedAttributes choose what a GET, a list and a POST /Users/.search answer; id and schemas are always answered', async () => {
    const { tenant, scim } = await newDirectory();
    const email = `attrs@${tenant.slug}.example`;
    const id = (await scim('POST', '/Users', user(email, { displayName: 'Ada' }))).body.id as string;
    const only = (await scim('GET', `/Users/${id}?attributes=displayName,name.givenName`)).body;
    expect(only).toEqual({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id, displayName: 'Ada', name: { givenName: 'Ada' } });
    const without = (await scim('GET', `/Users/${id}?excludedAttributes=urn:ietf:params:scim:schemas:core:2.0:User:emails,id,name.familyName`)).body;
    expect(without).toMatchObject({ id, userName: email, name: { givenName: 'Ada' } });
    expect(without.emails).toBeUndefined();
    expect(without.name.familyName).toBeUndefined();
    const listed = (await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&attributes=userName`)).body;
    expect(listed.Resources).toEqual([{ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id, userName: email }]);
    const searched = await scim('POST', '/Users/.search', {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      filter: `userName eq "${email}"`,
      excludedAttributes: ['emails', 'meta', 'groups'],
      count: 5,
    });
    expect(searched).toMatchObject({ status: 200, body: { totalResults: 1, Resources: [{ id, userName: email, displayName: 'Ada' }] } });
    expect(Object.keys(searched.body.Resources[0]).sort()).toEqual(['active', 'displayName', 'id', 'name', 'schemas', 'userName']);
    expect((await scim('GET', `/Users/${id}?attributes=userName&excludedAttributes=emails`)).body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    expect((await scim('POST', '/Users/.search', { filter: 'userName eq "x"' })).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
  });
});
