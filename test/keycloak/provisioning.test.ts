import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { eventually } from '../support/eventually.ts';
import { configureDemoAppMapper } from '../support/demoAppMapper.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakSettings } from '../support/keycloakContext.ts';
import { uniqueSlug } from '../support/testService.ts';

/** The whole provisioning path against the run's real Keycloak, with the project's invite extension installed. */
let stack: ActorStack;
beforeAll(async () => {
  stack = await startActorStack({ idp: () => new KeycloakIdentityProvider(keycloakSettings()) });
  // The invite's link is an invitation's: the extension asks the registry the realm's claims mapper names.
  await configureDemoAppMapper({ 'registry.url': stack.service.baseUrl, 'timeout.ms': '5000' });
});
afterAll(() => stack?.close());

const auditOf = async (tenantId: string, action: string) =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as Array<{ metadata: Record<string, unknown> }>;

/** One tenant provisioned at the start; the tests below read what it left in Keycloak and the catcher. */
let tenant: { id: string; slug: string; email: string; inviteUrl: string };
beforeAll(async () => {
  const slug = uniqueSlug('kc');
  const email = `admin@${slug}.example`;
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Keycloak ${slug}`, admin_email: email, admin_name: 'Ada Lovelace' });
  expect(res.status).toBe(201);
  tenant = { id: res.body.tenant.id, slug, email, inviteUrl: res.body.invite_url };
});

const userOf = async (email: string) => {
  const [user] = await (await keycloakAdmin()).users.find({ email, exact: true });
  if (!user?.id) throw new Error(`Keycloak has no user ${email}`);
  return { ...user, id: user.id };
};

describe('tenant creation with admin_email against Keycloak', () => {
  it('answers 201 with an invite_url on Keycloak and appends idp.invite_sent', async () => {
    expect(tenant.inviteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/realms\/tenant-registry\/login-actions\/action-token\?key=[\w.-]+$/);
    const [sent] = await eventually(async () => {
      const events = await auditOf(tenant.id, 'idp.invite_sent');
      return events.length > 0 ? events : undefined;
    });
    expect(sent!.metadata).toMatchObject({ resend: false });
  });

  it('creates the organization with the tenant id, the user with IT_ADMIN and the membership', async () => {
    const admin = await keycloakAdmin();
    const [organization] = await admin.organizations.find({ q: `tenant_id:${tenant.id}`, exact: true });
    expect(organization).toMatchObject({ alias: tenant.slug, enabled: true });
    expect(organization!.name).toContain(`Keycloak ${tenant.slug}`);
    const user = await userOf(tenant.email);
    expect(user).toMatchObject({ username: tenant.email, firstName: 'Ada', lastName: 'Lovelace', emailVerified: false });
    expect(user.requiredActions).toEqual(expect.arrayContaining(['VERIFY_EMAIL', 'UPDATE_PASSWORD']));
    expect(user.attributes).toMatchObject({ tenant_id: [tenant.id], tenant_slug: [tenant.slug] });
    const roles = await admin.users.listRealmRoleMappings({ id: user.id });
    expect(roles.map((role) => role.name)).toContain('IT_ADMIN');
    const members = await admin.organizations.listMembers({ orgId: organization!.id! });
    expect(members.map((member) => member.id)).toEqual([user.id]);
  });

  it('sends the execute-actions e-mail through SMTP, carrying the same link as invite_url', async () => {
    const [mail] = await eventually(async () => {
      const mails = await capturedMail(tenant.email);
      return mails.length > 0 ? mails : undefined;
    }, 10_000, 'the invite e-mail');
    expect(mail!.subject).toBe('Update Your Account');
    expect(mail!.text).toContain('Verify Email');
    expect(mail!.text).toContain('Update Password');
    // The link of the call that succeeded; an earlier call that timed out under load may have mailed one too.
    const links = (await capturedMail(tenant.email)).flatMap(actionLinks);
    expect(links).toContain(tenant.inviteUrl);
  });

  it('gives an invite_url that opens the required-actions page of Keycloak', async () => {
    const response = await fetch(tenant.inviteUrl, { redirect: 'manual' });
    const page = await response.text();
    expect(response.status).toBe(200);
    // The page Keycloak shows for a valid execute-actions token; an expired or forged one gets an error page instead.
    expect(page).toContain('Perform the following action(s)');
    expect(page).not.toMatch(/alert-error|Action expired|Invalid/i);
  });

  it('lists the membership read from Keycloak, with status, plan and products from the registry', async () => {
    const user = await userOf(tenant.email);
    const res = await stack.service.request('GET', `/v1/users/${user.id}/memberships`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({ tenant_id: tenant.id, tenant_slug: tenant.slug, status: 'trial', plan: 'starter', products: [], source: 'registry' }),
    ]);
  });

  it("pushes the tenant's claims into the user's Keycloak attributes when the tenant is activated", async () => {
    expect((await stack.service.request('POST', `/v1/tenants/${tenant.id}/activate`, { plan: 'growth' })).status).toBe(200);
    expect((await stack.service.request('POST', '/v1/catalog/trial-request', { tenant_id: tenant.id, product: 'analytics' })).status).toBe(201);
    const attributes = await eventually(async () => {
      const { attributes: attrs } = await userOf(tenant.email);
      return attrs?.tenant_status?.[0] === 'active' && attrs.products?.includes('analytics') ? attrs : undefined;
    }, 20_000, 'claims in the Keycloak user');
    expect(attributes).toMatchObject({ tenant_id: [tenant.id], tenant_slug: [tenant.slug], plan: ['growth'], tenant_status: ['active'], products: ['analytics'] });
  });

  it('sends a second working link on resendInvite', async () => {
    const before = (await capturedMail(tenant.email)).length;
    const signal = await stack.service.request('POST', `/v1/tenants/${tenant.id}/idp/resend-invite`);
    expect(signal.status).toBe(202);
    const mails = await eventually(async () => {
      const all = await capturedMail(tenant.email);
      return all.length > before ? all : undefined;
    }, 20_000, 'the resent invite e-mail');
    const [link] = actionLinks(mails.at(-1)!);
    expect(link).toBeDefined();
    expect(link).not.toBe(tenant.inviteUrl);
    const response = await fetch(link!, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Perform the following action(s)');
  });

  it('reports Keycloak up in /readyz', async () => {
    const res = await stack.service.request('GET', '/readyz');
    expect(res.body.checks).toMatchObject({ identity_provider: { status: 'up' } });
  });
});
