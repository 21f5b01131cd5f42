import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** SCIM Groups of a directory over HTTP, and the roles their mapping gives members, by the tenant's actor. */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack?.close());

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);

async function newDirectory(groupRoles: Record<string, string[]>) {
  const tenant = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('scimg'), name: 'SCIM groups' })).body.tenant as { id: string; slug: string };
  const directory = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, { group_roles: groupRoles })).body as { id: string; token: string };
  const scim = (method: string, path: string, body?: unknown) =>
    stack.service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, {
      authorization: `Bearer ${directory.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    });
  return { tenant, scim };
}
const rolesOf = async (tenantId: string, email: string) =>
  (await sql(`select array(select r.slug from member_roles mr join roles r on r.id = mr.role_id where mr.tenant_id = m.tenant_id and mr.user_id = m.user_id order by r.slug collate "C") as roles
                from members m where m.tenant_id = ? and m.email = ?`, [tenantId, email]))[0]?.roles as string[] | undefined;

describe('SCIM /Groups', () => {
  it("gives a group's members the roles the directory maps its name to, through POST, Okta's and Entra's PATCH, and DELETE", async () => {
    const { tenant, scim } = await newDirectory({ Admins: ['IT_ADMIN'] });
    const email = `grace@${tenant.slug}.example`;
    const userId = (await scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, emails: [{ value: email, primary: true }] })).body.id as string;
    await eventually(async () => JSON.stringify(await rolesOf(tenant.id, email)) === JSON.stringify(['MEMBER']), 10_000, 'the member with the default role');

    const group = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Admins', members: [{ value: userId }] });
    expect(group).toMatchObject({ status: 201, body: { displayName: 'Admins', members: [{ value: userId, type: 'User' }] } });
    // The user's answer names the groups it is in (read-only: written through the groups).
    expect((await scim('GET', `/Users/${userId}`)).body.groups).toEqual([{ value: group.body.id, display: 'Admins', $ref: expect.stringContaining(`/Groups/${group.body.id}`), type: 'direct' }]);
    await eventually(async () => JSON.stringify(await rolesOf(tenant.id, email)) === JSON.stringify(['IT_ADMIN', 'MEMBER']), 10_000, 'the mapped role');

    // Okta: remove by a value filter in the path.
    const okta = await scim('PATCH', `/Groups/${group.body.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'remove', path: `members[value eq "${userId}"]` }] });
    expect(okta).toMatchObject({ status: 200, body: { members: [] } });
    expect((await scim('GET', `/Users/${userId}`)).body.groups).toEqual([]);
    await eventually(async () => JSON.stringify(await rolesOf(tenant.id, email)) === JSON.stringify(['MEMBER']), 10_000, 'the mapped role gone');

    // Entra: "Add" with a list of members.
    const entra = await scim('PATCH', `/Groups/${group.body.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Add', path: 'members', value: [{ value: userId }] }] });
    expect(entra.body.members).toEqual([expect.objectContaining({ value: userId })]);
    await eventually(async () => JSON.stringify(await rolesOf(tenant.id, email)) === JSON.stringify(['IT_ADMIN', 'MEMBER']), 10_000, 'the mapped role again');

    expect((await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Admins"')}`)).body).toMatchObject({ totalResults: 1, Resources: [{ id: group.body.id }] });
    expect((await scim('POST', '/Groups', { displayName: 'Admins' })).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('DELETE', `/Groups/${group.body.id}`)).status).toBe(204);
    await eventually(async () => JSON.stringify(await rolesOf(tenant.id, email)) === JSON.stringify(['MEMBER']), 10_000, 'the roles of a deleted group gone');
    expect((await scim('GET', `/Groups/${group.body.id}`)).status).toBe(404);
    const actions = ((await stack.service.request('GET', `/v1/audit?tenant_id=${tenant.id}&limit=100`)).body.items as { action: string }[]).map((e) => e.action);
    expect(actions.filter((a) => a.startsWith('directory.group_'))).toEqual(['directory.group_deleted', 'directory.group_updated', 'directory.group_updated', 'directory.group_created']);
  });
});
