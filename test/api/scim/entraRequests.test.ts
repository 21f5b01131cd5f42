import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { expectCreated, expectScimAnswer, newScimDirectory } from '../../support/scimDirectory.ts';

/**
 * The requests Microsoft Entra ID's provisioning service sends, as recorded in Microsoft's "Tutorial: Develop and plan
 * provisioning for a SCIM endpoint in Microsoft Entra ID" (learn.microsoft.com/entra/identity/app-provisioning/
 * use-scim-to-provision-users-and-groups, its "Request and response" section): each body below is the document's,
 * with only its ids replaced by the ones this endpoint gave and its userName made unique per run. One test per
 * operation Entra ID sends.
 */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack?.close());

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** "Create User": the enterprise extension's schema named, meta and an empty roles list sent. */
const entraCreateUser = (userName: string, email: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
  userName,
  active: true,
  emails: [{ primary: true, type: 'work', value: email }],
  meta: { resourceType: 'User' },
  name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
  roles: [],
});

/** "Update User [Multi-valued properties]": Replace through a value filter, and of a sub-attribute. */
const entraUpdateMultiValued = {
  schemas: [PATCH_OP],
  Operations: [
    { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
    { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
  ],
};

/** "Update User [Single-valued properties]". */
const entraUpdateUserName = (userName: string) => ({ schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'userName', value: userName }] });

/** "Disable User": Operations before schemas, as the document writes it. */
const entraDisableUser = { Operations: [{ op: 'Replace', path: 'active', value: false }], schemas: [PATCH_OP] };

/** "Create Group": Microsoft's own schema named beside the core one; groups are made without members. */
const entraCreateGroup = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'],
  externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
  displayName: 'displayName',
  meta: { resourceType: 'Group' },
};

/** "Update Group [Non-member attributes]". */
const entraRenameGroup = { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }] };

/** "Update Group [Add Members]" and "[Remove Members]": a list of members, each with a null $ref. */
const entraMembers = (op: 'Add' | 'Remove', value: string) => ({ schemas: [PATCH_OP], Operations: [{ op, path: 'members', value: [{ $ref: null, value }] }] });

async function directoryWithUser() {
  const directory = await newScimDirectory(stack, 'entra');
  const userName = `Test_User_${directory.tenant.slug}`;
  const email = `${userName}@testuser.com`;
  const created = await directory.scim('POST', '/Users', entraCreateUser(userName, email));
  return { ...directory, userName, email, id: created.body.id as string };
}

describe("Microsoft Entra ID's SCIM requests (Tutorial: Develop and plan provisioning for a SCIM endpoint)", () => {
  it('create user: POST /Users with the enterprise schema, meta and roles is 201 with Location and the user as sent', async () => {
    const { scim, tenant } = await newScimDirectory(stack, 'entra');
    const userName = `Test_User_${tenant.slug}`;
    const created = await scim('POST', '/Users', entraCreateUser(userName, `${userName}@testuser.com`));
    expectCreated(created);
    expect(created.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id: expect.any(String),
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      active: true,
      emails: [{ value: `${userName}@testuser.com`, type: 'work', primary: true }],
      meta: { resourceType: 'User', created: expect.any(String), lastModified: expect.any(String) },
    });
  });

  it('get user: GET /Users/{id} answers the user; an unknown id is 404 in the error schema', async () => {
    const { scim, id, userName } = await directoryWithUser();
    const got = await scim('GET', `/Users/${id}`);
    expectScimAnswer(got, 200);
    expect(got.body).toMatchObject({ id, userName, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', active: true });
    const missing = await scim('GET', '/Users/5171a35d82074e068ce2');
    expectScimAnswer(missing, 404);
    expect(missing.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' });
  });

  it('get user by query: filter userName eq finds one; a userName no user has is a list of none', async () => {
    const { scim, id, userName } = await directoryWithUser();
    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expectScimAnswer(found, 200);
    expect(found.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, Resources: [{ id, userName }] });
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "non-existent user"')}`);
    expectScimAnswer(none, 200);
    expect(none.body).toMatchObject({ schemas: [LIST], totalResults: 0, Resources: [], startIndex: 1 });
  });

  it('update user: Replace of emails[type eq "work"].value and name.familyName, then of userName', async () => {
    const { scim, id } = await directoryWithUser();
    const multi = await scim('PATCH', `/Users/${id}`, entraUpdateMultiValued);
    expectScimAnswer(multi, 200);
    expect(multi.body).toMatchObject({ id, name: { familyName: 'updatedFamilyName', givenName: 'givenName' }, emails: [{ value: 'updatedEmail@microsoft.com', type: 'work', primary: true }] });
    const single = await scim('PATCH', `/Users/${id}`, entraUpdateUserName('5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com'));
    expectScimAnswer(single, 200);
    expect(single.body).toMatchObject({ id, userName: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' });
  });

  it('disable user: Replace active false answers the user inactive and deactivates the member', async () => {
    const { scim, id, tenant, email } = await directoryWithUser();
    const member = async () => (await stack.service.orm.em.fork().execute<{ status: string }[]>('select status from members where tenant_id = ? and email = ?', [tenant.id, email.toLowerCase()]))[0]?.status;
    await eventually(async () => (await member()) === 'active', 10_000, 'the member');
    const disabled = await scim('PATCH', `/Users/${id}`, entraDisableUser);
    expectScimAnswer(disabled, 200);
    expect(disabled.body).toMatchObject({ id, active: false });
    await eventually(async () => (await member()) === 'inactive', 10_000, 'the member deactivated');
  });

  it('delete user: DELETE /Users/{id} is 204 and the user is gone', async () => {
    const { scim, id } = await directoryWithUser();
    const deleted = await scim('DELETE', `/Users/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expectScimAnswer(await scim('GET', `/Users/${id}`), 404);
  });

  it('groups: POST /Groups is 201 with Location and no members; GET and the displayName query with excludedAttributes=members; the rename; DELETE is 204', async () => {
    const { scim } = await newScimDirectory(stack, 'entra');
    const created = await scim('POST', '/Groups', entraCreateGroup);
    expectCreated(created);
    expect(created.body).toMatchObject({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id: expect.any(String), externalId: entraCreateGroup.externalId, displayName: 'displayName', members: [], meta: { resourceType: 'Group' } });
    const id = created.body.id as string;
    const got = await scim('GET', `/Groups/${id}?excludedAttributes=members`);
    expectScimAnswer(got, 200);
    expect(got.body).toMatchObject({ id, externalId: entraCreateGroup.externalId, displayName: 'displayName' });
    expect(got.body.members).toBeUndefined();
    const byName = await scim('GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`);
    expectScimAnswer(byName, 200);
    expect(byName.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, Resources: [{ id, displayName: 'displayName' }] });
    expect(byName.body.Resources[0].members).toBeUndefined();
    const renamed = await scim('PATCH', `/Groups/${id}`, entraRenameGroup);
    expectScimAnswer(renamed, 200);
    expect(renamed.body).toMatchObject({ id, displayName: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' });
    expect((await scim('DELETE', `/Groups/${id}`)).status).toBe(204);
    expectScimAnswer(await scim('GET', `/Groups/${id}`), 404);
  });

  it('group members: Add then Remove of a list of members with a null $ref adds and removes exactly that member', async () => {
    const { scim, id: userId } = await directoryWithUser();
    const other = (await scim('POST', '/Users', entraCreateUser(`other-${userId}`, `other-${userId}@testuser.com`))).body.id as string;
    const group = (await scim('POST', '/Groups', entraCreateGroup)).body.id as string;
    const added = await scim('PATCH', `/Groups/${group}`, entraMembers('Add', userId));
    expectScimAnswer(added, 200);
    await scim('PATCH', `/Groups/${group}`, entraMembers('Add', other));
    expect(((await scim('GET', `/Groups/${group}`)).body.members as { value: string }[]).map((m) => m.value).sort()).toEqual([userId, other].sort());
    const removed = await scim('PATCH', `/Groups/${group}`, entraMembers('Remove', userId));
    expectScimAnswer(removed, 200);
    expect((removed.body.members as { value: string }[]).map((m) => m.value)).toEqual([other]);
    expect((await scim('GET', `/Users/${userId}`)).body.groups).toEqual([]);
  });
});
