import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { expectScimAnswer, newScimDirectory } from '../../support/scimDirectory.ts';

/** RFC 7644 as written: the endpoint's media type (§8.1) and paging (§3.4.2.4). */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack?.close());

const ids = (body: { Resources: { id: string }[] }) => body.Resources.map((r) => r.id);

describe('SCIM media type (RFC 7644 §8.1)', () => {
  it('every answer with a body is application/scim+json: discovery, lists, resources, and refusals before and after the token is checked', async () => {
    const { scim, directory } = await newScimDirectory(stack, 'media');
    expectScimAnswer(await scim('GET', '/ServiceProviderConfig'), 200);
    expectScimAnswer(await scim('GET', '/Users'), 200);
    expectScimAnswer(await scim('POST', '/Users/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] }), 200);
    expectScimAnswer(await scim('GET', '/Users/not-a-user'), 404);
    expectScimAnswer(await scim('POST', '/Users', { userName: '' }), 400);
    expectScimAnswer(await scim('POST', '/Users', 'not json'), 400);
    expectScimAnswer(await scim('POST', '/Users', 'userName=x', 'application/x-www-form-urlencoded'), 415);
    expectScimAnswer(await scim('GET', '/Nothing'), 404);
    expectScimAnswer(await scim('POST', '/.search', {}), 501);
    const noToken = await stack.service.request('GET', `/scim/v2/directories/${directory.id}/Users`);
    expectScimAnswer(noToken, 401);
    expect(noToken.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '401' });
  });

  it('a body sent as application/json is read as one sent as application/scim+json', async () => {
    const { scim, tenant } = await newScimDirectory(stack, 'media');
    const made = await scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `json@${tenant.slug}.example` }, 'application/json');
    expectScimAnswer(made, 201);
  });
});

describe('SCIM paging (RFC 7644 §3.4.2.4)', () => {
  async function directoryOfThree() {
    const directory = await newScimDirectory(stack, 'paging');
    const made: string[] = [];
    for (const n of [1, 2, 3]) made.push((await directory.scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `p${n}@${directory.tenant.slug}.example` })).body.id);
    return { ...directory, made };
  }

  it('startIndex below 1 is read as 1: 0 and a negative value answer the first page, startIndex 1', async () => {
    const { scim, made } = await directoryOfThree();
    for (const startIndex of ['0', '-1', '-1000']) {
      const page = await scim('GET', `/Users?startIndex=${startIndex}&count=2`);
      expectScimAnswer(page, 200);
      expect(page.body).toMatchObject({ totalResults: 3, startIndex: 1, itemsPerPage: 2 });
      expect(ids(page.body)).toEqual(made.slice(0, 2));
    }
    const searched = await scim('POST', '/Users/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], startIndex: 0, count: 1 });
    expect(searched.body).toMatchObject({ totalResults: 3, startIndex: 1, itemsPerPage: 1, Resources: [{ id: made[0] }] });
  });

  it('count=0 is a page of no resources that still carries totalResults; a negative count is read as 0', async () => {
    const { scim } = await directoryOfThree();
    for (const count of ['0', '-5']) {
      const page = await scim('GET', `/Users?count=${count}`);
      expectScimAnswer(page, 200);
      expect(page.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 3, startIndex: 1, itemsPerPage: 0, Resources: [] });
    }
    const groups = await scim('GET', '/Groups?count=0&startIndex=0');
    expectScimAnswer(groups, 200);
    expect(groups.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('pages walk the users in one order: startIndex past the end is a page of none with totalResults; a count above 200 is cut to 200', async () => {
    const { scim, made } = await directoryOfThree();
    const walked: string[] = [];
    for (let start = 1; start <= 3; start += 1) walked.push(...ids((await scim('GET', `/Users?startIndex=${start}&count=1`)).body));
    expect(walked).toEqual(made);
    expect((await scim('GET', '/Users?startIndex=4&count=10')).body).toMatchObject({ totalResults: 3, startIndex: 4, itemsPerPage: 0, Resources: [] });
    expect((await scim('GET', '/Users?count=100000')).body).toMatchObject({ totalResults: 3, itemsPerPage: 3 });
    expectScimAnswer(await scim('GET', '/Users?count=many'), 400);
  });
});

describe('SCIM PATCH remove (RFC 7644 §3.5.2.2)', () => {
  it('with a path removes the attribute; with a value filter removes the values it selects; without a path is 400 noTarget', async () => {
    const { scim, tenant } = await newScimDirectory(stack, 'remove');
    const userName = `rm@${tenant.slug}.example`;
    const id = (
      await scim('POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        displayName: 'Removable',
        name: { givenName: 'Re', familyName: 'Move' },
        emails: [{ value: userName, type: 'work', primary: true }, { value: `home-${userName}`, type: 'home' }],
      })
    ).body.id as string;
    const patch = (operations: unknown[]) => scim('PATCH', `/Users/${id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
    const removed = await patch([{ op: 'remove', path: 'displayName' }, { op: 'remove', path: 'name.givenName' }, { op: 'remove', path: 'emails[type eq "home"]' }]);
    expectScimAnswer(removed, 200);
    expect(removed.body.displayName).toBeUndefined();
    expect(removed.body.name).toEqual({ familyName: 'Move' });
    expect(removed.body.emails).toEqual([{ value: userName, type: 'work', primary: true }]);
    expect((await scim('GET', `/Users/${id}`)).body.displayName).toBeUndefined();
    const noPath = await patch([{ op: 'remove' }]);
    expectScimAnswer(noPath, 400);
    expect(noPath.body).toMatchObject({ status: '400', scimType: 'noTarget' });
    const group = (await scim('POST', '/Groups', { displayName: 'Removals', members: [{ value: id }] })).body.id as string;
    const noGroupPath = await scim('PATCH', `/Groups/${group}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'remove', value: [{ value: id }] }] });
    expect(noGroupPath.body).toMatchObject({ status: '400', scimType: 'noTarget' });
    expect((await scim('GET', `/Groups/${group}`)).body.members).toEqual([expect.objectContaining({ value: id })]);
  });
});

describe('SCIM group members that name no user', () => {
  it('a member value that is not an id this endpoint gives is not kept: 200 with the members kept; a member without a string value is 400', async () => {
    const { scim, tenant } = await newScimDirectory(stack, 'members');
    const user = (await scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `m@${tenant.slug}.example` })).body.id as string;
    const group = await scim('POST', '/Groups', { displayName: 'Named', members: [{ value: user }, { value: 'fake-member-id' }] });
    expectScimAnswer(group, 201);
    expect(group.body.members).toEqual([expect.objectContaining({ value: user })]);
    const added = await scim('PATCH', `/Groups/${group.body.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'members', value: [{ value: 'fake-member-id' }] }] });
    expectScimAnswer(added, 200);
    expect(added.body.members).toEqual([expect.objectContaining({ value: user })]);
    expectScimAnswer(await scim('POST', '/Groups', { displayName: 'Valueless', members: [{ display: 'no value' }] }), 400);
    expectScimAnswer(await scim('POST', '/Groups', { displayName: 'Numbered', members: [{ value: 7 }] }), 400);
  });
});
