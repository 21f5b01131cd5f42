import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/**
 * What a directory may not do (SPEC-EXTENSIONS §13), over HTTP with the tenant's actor and the simulated provider:
 * reach a shared prototype, take another tenant's account, or change members it did not make.
 */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack();
});
afterAll(() => stack?.close());

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

async function newTenant(extra: Record<string, unknown> = {}) {
  const res = await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('scimb'), name: 'SCIM boundaries', ...extra });
  expect(res.status).toBe(201);
  return res.body.tenant as { id: string; slug: string };
}

async function newDirectory(tenant: { id: string }, groupRoles?: Record<string, string[]>) {
  const directory = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, groupRoles ? { group_roles: groupRoles } : {})).body as { id: string; token: string };
  const scim = (method: string, path: string, body?: unknown) =>
    stack.service.request(method, `/scim/v2/directories/${directory.id}${path}`, body, {
      authorization: `Bearer ${directory.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    });
  return { directory, scim };
}

const user = (userName: string, extra: Record<string, unknown> = {}) => ({ schemas: [USER_SCHEMA], userName, emails: [{ value: userName, primary: true }], active: true, ...extra });
const patch = (...Operations: unknown[]) => ({ schemas: [PATCH_OP], Operations });
const memberOf = async (tenantId: string, email: string) => (await sql('select user_id, status, source from members where tenant_id = ? and email = ?', [tenantId, email]))[0];
const rolesOf = async (tenantId: string, userId: string) => (await stack.service.request('GET', `/v1/tenants/${tenantId}/members/${userId}`)).body.roles as string[];
const providerUser = async (email: string) => (await sql('select id, enabled from idp_sim_users where email = ?', [email]))[0];
const auditOf = async (tenantId: string, action: string) => (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as { metadata: Record<string, unknown> }[];

type Scim = Awaited<ReturnType<typeof newDirectory>>['scim'];

async function activeScimUser(scim: Scim, tenantId: string, email: string) {
  const created = await scim('POST', '/Users', user(email));
  expect(created.status).toBe(201);
  await eventually(async () => (await memberOf(tenantId, email))?.status === 'active', 10_000, 'the member');
  return created.body.id as string;
}

/** A tenant provisioned with its IT_ADMIN: an account of the simulated provider that tenant made. */
async function otherTenantsAdmin() {
  const admin = `admin-${uniqueSlug('a')}@victim.example`;
  const victim = await newTenant({ admin_email: admin });
  await eventually(() => providerUser(admin), 10_000, "the victim's admin account");
  await eventually(() => memberOf(victim.id, admin), 10_000, "the victim's admin member");
  return { victim, admin };
}

describe('SCIM PATCH paths are checked against the schema before anything applies them', () => {
  it('a path or value through __proto__, constructor or prototype, or naming no attribute, is 400 invalidPath; afterwards, in the same process, an invitation gets the default role and tenants are made', async () => {
    const tenant = await newTenant();
    const { scim } = await newDirectory(tenant);
    const id = await activeScimUser(scim, tenant.id, `proto@${tenant.slug}.example`);
    // Raw JSON text: a "__proto__" key reaches the service as a key, as an attacker's client sends it.
    const attacks = [
      '{"op":"add","path":"__proto__.roles","value":["IT_ADMIN"]}',
      '{"op":"add","path":"toString.x","value":"polluted"}',
      '{"op":"add","path":"constructor.prototype.roles","value":["IT_ADMIN"]}',
      '{"op":"add","path":"prototype.x","value":"polluted"}',
      '{"op":"add","path":"name.__proto__","value":{"roles":["IT_ADMIN"]}}',
      '{"op":"add","path":"emails[constructor eq \\"x\\"].value","value":"x"}',
      '{"op":"replace","value":{"__proto__":{"roles":["IT_ADMIN"]}}}',
      '{"op":"replace","value":{"\\u005f_proto__":{"roles":["IT_ADMIN"]}}}',
      '{"op":"replace","value":{"constructor.prototype.roles":["IT_ADMIN"]}}',
      '{"op":"replace","value":{"name":{"constructor":{"prototype":{"roles":["IT_ADMIN"]}}}}}',
      '{"op":"add","path":"nickNameOfNoSchema","value":"x"}',
      '{"op":"add","path":"urn:ietf:params:scim:schemas:core:2.0:Group:displayName","value":"x"}',
    ];
    for (const attack of attacks) {
      const res = await scim('PATCH', `/Users/${id}`, `{"schemas":["${PATCH_OP}"],"Operations":[${attack}]}`);
      expect({ attack, status: res.status, scimType: res.body.scimType }).toEqual({ attack, status: 400, scimType: 'invalidPath' });
    }
    const group = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'G' });
    expect((await scim('PATCH', `/Groups/${group.body.id}`, `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"add","path":"__proto__.roles","value":["IT_ADMIN"]}]}`)).body.scimType).toBe('invalidPath');
    expect((await scim('POST', '/Users', `{"schemas":["${USER_SCHEMA}"],"userName":"p2@${tenant.slug}.example","name":{"__proto__":{"roles":["IT_ADMIN"]}}}`)).body).toMatchObject({ status: '400', scimType: 'invalidPath' });
    expect((await scim('PUT', `/Users/${id}`, `{"schemas":["${USER_SCHEMA}"],"userName":"proto@${tenant.slug}.example","name":{"constructor":{"prototype":{"roles":["IT_ADMIN"]}}}}`)).body).toMatchObject({ status: '400', scimType: 'invalidPath' });
    // The same process: nothing landed on a shared prototype.
    const invited = await stack.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: `invitee@${tenant.slug}.example`, send_email: false });
    expect(invited.status).toBe(201);
    expect(invited.body.roles).toEqual(['MEMBER']);
    expect((await newTenant()).id).toEqual(expect.any(String));
    expect((await scim('GET', `/Users/${id}`)).body).toMatchObject({ id, userName: `proto@${tenant.slug}.example` });
  });

  it('a "__proto__" key in any JSON body is refused with 400 before a route sees it', async () => {
    const res = await stack.service.request('POST', '/v1/tenants', `{"slug":"${uniqueSlug('p')}","name":"x","__proto__":{"roles":["IT_ADMIN"]}}`);
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_input' } });
    expect((await newTenant()).id).toEqual(expect.any(String));
  });
});

describe("a directory links only accounts its tenant governs (another tenant's admin is refused)", () => {
  it("POST, PUT and PATCH to another tenant's admin address are 409 uniqueness and link nothing; PATCH active:false of the own user leaves that account enabled", async () => {
    const { admin } = await otherTenantsAdmin();
    const tenant = await newTenant();
    const { scim } = await newDirectory(tenant);
    expect((await scim('POST', '/Users', user(admin))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('POST', '/Users', user(`alias@${tenant.slug}.example`, { emails: [{ value: admin, primary: true }] }))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    const own = `own@${tenant.slug}.example`;
    const id = await activeScimUser(scim, tenant.id, own);
    expect((await scim('PUT', `/Users/${id}`, user(own, { emails: [{ value: admin, primary: true }] }))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'emails', value: [{ value: admin, primary: true }] }))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', value: { userName: admin } }))).body).toMatchObject({ status: '409', scimType: 'uniqueness' });
    expect((await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${admin}"`)}`)).body.totalResults).toBe(0);
    expect((await scim('PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: false }))).status).toBe(200);
    await eventually(async () => (await memberOf(tenant.id, own))?.status === 'inactive', 10_000, 'the own member inactive');
    expect(await memberOf(tenant.id, admin)).toBeUndefined();
    expect((await providerUser(admin))?.enabled).toBe(true);
    await eventually(async () => (await providerUser(own))?.enabled === false, 10_000, 'the own account disabled');
  });
});

describe('a directory changes only the members it made', () => {
  it("active:false and DELETE of a SCIM user whose account is an invited member's leave that member and its account as they were", async () => {
    const tenant = await newTenant();
    const email = `invited@${tenant.slug}.example`;
    expect((await stack.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email, send_email: false })).status).toBe(201);
    const invited = await eventually(() => memberOf(tenant.id, email), 10_000, 'the invited member');
    const { scim } = await newDirectory(tenant);
    const created = await scim('POST', '/Users', user(email));
    expect(created.status).toBe(201);
    await eventually(async () => (await sql('select user_id from directory_users where id = ?', [created.body.id]))[0]?.user_id === invited!.user_id, 10_000, 'the SCIM user linked');
    expect((await scim('PATCH', `/Users/${created.body.id}`, patch({ op: 'replace', path: 'active', value: false }))).status).toBe(200);
    expect((await scim('DELETE', `/Users/${created.body.id}`)).status).toBe(204);
    await eventually(async () => (await sql('select count(*)::int as n from directory_users where id = ?', [created.body.id]))[0]!.n === 0, 10_000, 'the SCIM user forgotten');
    expect(await memberOf(tenant.id, email)).toMatchObject({ status: 'pending', source: 'invitation' });
    expect((await providerUser(email))?.enabled).toBe(true);
  });
});

describe("a directory's own people", () => {
  it('deleting the directory removes the members it made within 5 s; an invited member stays', async () => {
    const tenant = await newTenant();
    const { directory, scim } = await newDirectory(tenant);
    const emails = [`d1@${tenant.slug}.example`, `d2@${tenant.slug}.example`];
    for (const email of emails) await activeScimUser(scim, tenant.id, email);
    const invitee = `stays@${tenant.slug}.example`;
    expect((await stack.service.request('POST', `/v1/tenants/${tenant.id}/invitations`, { email: invitee, send_email: false })).status).toBe(201);
    expect((await stack.service.request('DELETE', `/v1/directories/${directory.id}`)).status).toBe(204);
    for (const email of emails) await eventually(async () => (await memberOf(tenant.id, email)) === undefined, 5_000, `${email} removed`);
    expect(await memberOf(tenant.id, invitee)).toMatchObject({ source: 'invitation' });
    expect((await auditOf(tenant.id, 'member.removed')).length).toBe(2);
  });

  it("a change of group_roles reaches the groups' existing members within 5 s", async () => {
    const tenant = await newTenant();
    const { directory, scim } = await newDirectory(tenant);
    const email = `eng@${tenant.slug}.example`;
    const id = await activeScimUser(scim, tenant.id, email);
    expect((await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Eng', members: [{ value: id }] })).status).toBe(201);
    const userId = (await memberOf(tenant.id, email))!.user_id as string;
    expect(await rolesOf(tenant.id, userId)).toEqual(['MEMBER']);
    expect((await stack.service.request('PATCH', `/v1/directories/${directory.id}`, { group_roles: { Eng: ['IT_ADMIN'] } })).status).toBe(200);
    await eventually(async () => (await rolesOf(tenant.id, userId)).includes('IT_ADMIN'), 5_000, 'the new role');
  });

  it('may deactivate the last active IT_ADMIN it made; the tenant then gets tenant.no_active_admin', async () => {
    const tenant = await newTenant();
    const { scim } = await newDirectory(tenant, { Admins: ['IT_ADMIN'] });
    const adminEmail = `boss@${tenant.slug}.example`;
    const adminId = await activeScimUser(scim, tenant.id, adminEmail);
    await activeScimUser(scim, tenant.id, `staff@${tenant.slug}.example`);
    expect((await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Admins', members: [{ value: adminId }] })).status).toBe(201);
    const userId = (await memberOf(tenant.id, adminEmail))!.user_id as string;
    await eventually(async () => (await rolesOf(tenant.id, userId)).includes('IT_ADMIN'), 10_000, 'the IT_ADMIN');
    expect((await scim('PATCH', `/Users/${adminId}`, patch({ op: 'replace', path: 'active', value: false }))).status).toBe(200);
    await eventually(async () => (await memberOf(tenant.id, adminEmail))?.status === 'inactive', 10_000, 'the last admin deactivated');
    const [event, ...more] = await eventually(async () => {
      const events = await auditOf(tenant.id, 'tenant.no_active_admin');
      return events.length > 0 ? events : undefined;
    }, 10_000, 'tenant.no_active_admin');
    expect(event!.metadata).toMatchObject({ user_id: userId });
    expect(more).toEqual([]);
  });
});
