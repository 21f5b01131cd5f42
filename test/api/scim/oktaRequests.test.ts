import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { expectCreated, expectScimAnswer, newScimDirectory } from '../../support/scimDirectory.ts';

/**
 * The requests Okta sends, as recorded in Okta's "SCIM 2.0 Protocol Reference"
 * (developer.okta.com/docs/reference/scim/scim-20/): each body below is the document's, with only its ids replaced by
 * the ones this endpoint gave and its userName made unique per run. One test per operation Okta sends.
 */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack?.close());

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** "Create the User": POST /Users with the user's application profile, its password included. */
const oktaCreateUser = (userName: string) => ({
  schemas: [USER_SCHEMA],
  userName,
  name: { givenName: 'Test', familyName: 'User' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  displayName: 'Test User',
  locale: 'en-US',
  externalId: '00ujl29u0le5T6Aj10h7',
  groups: [],
  password: '1mz050nq',
  active: true,
});

/** "Update the User": PUT /Users/{id} with the whole user as Okta read it, its id and meta included. */
const oktaReplaceUser = (id: string, userName: string) => ({
  schemas: [USER_SCHEMA],
  id,
  userName,
  name: { givenName: 'Another', middleName: 'Excited', familyName: 'User' },
  emails: [{ primary: true, value: userName, type: 'work', display: userName }],
  active: true,
  groups: [],
  meta: { resourceType: 'User' },
});

/** "Update a specific User (PATCH)": deactivation, a replace without path. */
const oktaDeactivate = { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] };

/** "Create Groups": POST /Groups of a pushed group. */
const oktaCreateGroup = { schemas: [GROUP_SCHEMA], displayName: 'Test SCIMv2', members: [] };

/** "Update a specific Group name": a replace without path whose value carries the group's id. */
const oktaRenameGroup = (id: string) => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { id, displayName: 'Test SCIMv20' } }] });

/** "Update specific Group membership": a remove by a value filter in the path, then an add of a list. */
const oktaChangeMembers = (removed: string, added: string, addedName: string) => ({
  schemas: [PATCH_OP],
  Operations: [
    { op: 'remove', path: `members[value eq "${removed}"]` },
    { op: 'add', path: 'members', value: [{ value: added, display: addedName }] },
  ],
});

/** The same section's full push of the membership: a replace of the whole list. */
const oktaReplaceMembers = (members: { value: string; display: string }[]) => ({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'members', value: members }] });

async function directoryWithUser() {
  const directory = await newScimDirectory(stack, 'okta');
  const userName = `test.user@${directory.tenant.slug}.okta.local`;
  const created = await directory.scim('POST', '/Users', oktaCreateUser(userName));
  return { ...directory, userName, created, id: created.body.id as string };
}

describe("Okta's SCIM requests (Okta SCIM 2.0 Protocol Reference)", () => {
  it('create: the look-up by userName finds none, then POST /Users with a password is 201 with Location; the password is never kept or answered', async () => {
    const { scim, tenant } = await newScimDirectory(stack, 'okta');
    const userName = `test.user@${tenant.slug}.okta.local`;
    const lookUp = await scim('GET', `/Users?filter=userName%20eq%20%22${encodeURIComponent(userName)}%22&startIndex=1&count=100`);
    expectScimAnswer(lookUp, 200);
    expect(lookUp.body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
    const created = await scim('POST', '/Users', oktaCreateUser(userName));
    expectCreated(created);
    expect(created.body).toMatchObject({
      schemas: [USER_SCHEMA],
      id: expect.any(String),
      userName,
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Test User',
      externalId: '00ujl29u0le5T6Aj10h7',
      active: true,
      groups: [],
      meta: { resourceType: 'User' },
    });
    expect(created.body.password).toBeUndefined();
    expect(JSON.stringify((await scim('GET', `/Users/${created.body.id}`)).body)).not.toContain('1mz050nq');
    const again = await scim('POST', '/Users', oktaCreateUser(userName));
    expectScimAnswer(again, 409);
    expect(again.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '409', scimType: 'uniqueness' });
  });

  it('get: GET /Users/{id} answers the user as created', async () => {
    const { scim, id, userName } = await directoryWithUser();
    const got = await scim('GET', `/Users/${id}`);
    expectScimAnswer(got, 200);
    expect(got.body).toMatchObject({ id, userName, active: true, emails: [{ value: userName }], groups: [], meta: { resourceType: 'User', location: expect.stringMatching(new RegExp(`/Users/${id}$`)) } });
  });

  it('filter: the look-up by userName with startIndex=1&count=100 finds the user, whatever the case of the value', async () => {
    const { scim, id, userName } = await directoryWithUser();
    const found = await scim('GET', `/Users?filter=userName%20eq%20%22${encodeURIComponent(userName.toUpperCase())}%22&startIndex=1&count=100`);
    expectScimAnswer(found, 200);
    expect(found.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [{ id, userName }] });
    const imported = await scim('GET', '/Users?startIndex=1&count=100');
    expectScimAnswer(imported, 200);
    expect(imported.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1, Resources: [{ id }] });
  });

  it('PUT: the whole user with its id, meta and groups replaces it; with a password too, which is dropped', async () => {
    const { scim, id, userName } = await directoryWithUser();
    const replaced = await scim('PUT', `/Users/${id}`, oktaReplaceUser(id, userName));
    expectScimAnswer(replaced, 200);
    expect(replaced.body).toMatchObject({ id, userName, name: { givenName: 'Another', middleName: 'Excited', familyName: 'User' }, emails: [{ value: userName, display: userName }], active: true });
    // An integration of Okta's App Integration Wizard syncs the password through the same PUT.
    const withPassword = await scim('PUT', `/Users/${id}`, { ...oktaReplaceUser(id, userName), password: 'n3w-pa55' });
    expectScimAnswer(withPassword, 200);
    expect(withPassword.body.password).toBeUndefined();
    // The id is the path's: another in the body changes nothing.
    const otherId = await scim('PUT', `/Users/${id}`, oktaReplaceUser('00000000-0000-4000-8000-000000000001', userName));
    expectScimAnswer(otherId, 200);
    expect(otherId.body.id).toBe(id);
  });

  it('deactivate: PATCH replace {active: false} without path answers the user inactive', async () => {
    const { scim, id, tenant, userName } = await directoryWithUser();
    const member = async () => (await stack.service.orm.em.fork().execute<{ status: string }[]>('select status from members where tenant_id = ? and email = ?', [tenant.id, userName]))[0]?.status;
    await eventually(async () => (await member()) === 'active', 10_000, 'the member');
    const patched = await scim('PATCH', `/Users/${id}`, oktaDeactivate);
    expectScimAnswer(patched, 200);
    expect(patched.body).toMatchObject({ id, userName, active: false });
    await eventually(async () => (await member()) === 'inactive', 10_000, 'the member deactivated');
  });

  it('groups: POST /Groups is 201 with Location; GET answers it; the rename PATCH with the id in its value; DELETE is 204', async () => {
    const { scim } = await newScimDirectory(stack, 'okta');
    const created = await scim('POST', '/Groups', oktaCreateGroup);
    expectCreated(created);
    expect(created.body).toMatchObject({ schemas: [GROUP_SCHEMA], id: expect.any(String), displayName: 'Test SCIMv2', members: [], meta: { resourceType: 'Group' } });
    const id = created.body.id as string;
    const got = await scim('GET', `/Groups/${id}`);
    expectScimAnswer(got, 200);
    expect(got.body).toMatchObject({ id, displayName: 'Test SCIMv2' });
    const renamed = await scim('PATCH', `/Groups/${id}`, oktaRenameGroup(id));
    expectScimAnswer(renamed, 200);
    expect(renamed.body).toMatchObject({ id, displayName: 'Test SCIMv20' });
    const deleted = await scim('DELETE', `/Groups/${id}`);
    expect(deleted.status).toBe(204);
    expectScimAnswer(await scim('GET', `/Groups/${id}`), 404);
  });

  it("group members: PATCH remove members[value eq …] with add of a list, then replace of the whole list, changes exactly the members named", async () => {
    const { scim, tenant } = await newScimDirectory(stack, 'okta');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await scim('POST', '/Users', oktaCreateUser(`u${n}@${tenant.slug}.okta.local`))).body.id);
    const [a, b, c] = ids as [string, string, string];
    const group = (await scim('POST', '/Groups', { ...oktaCreateGroup, members: [{ value: a }, { value: b }] })).body.id as string;
    const changed = await scim('PATCH', `/Groups/${group}`, oktaChangeMembers(a, c, 'u3'));
    expectScimAnswer(changed, 200);
    expect((changed.body.members as { value: string }[]).map((m) => m.value).sort()).toEqual([b, c].sort());
    const replaced = await scim('PATCH', `/Groups/${group}`, oktaReplaceMembers([{ value: a, display: 'u1' }, { value: c, display: 'u3' }]));
    expectScimAnswer(replaced, 200);
    expect((replaced.body.members as { value: string }[]).map((m) => m.value).sort()).toEqual([a, c].sort());
    expect((await scim('GET', `/Users/${b}`)).body.groups).toEqual([]);
  });
});
