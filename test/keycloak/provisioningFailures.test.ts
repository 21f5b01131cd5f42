import { afterEach, describe, expect, it } from 'vitest';
import { KeycloakIdentityProvider } from '../../identityProvider/keycloakIdentityProvider.ts';
import type { KeycloakSettings } from '../../identityProvider/keycloakSettings.ts';
import { RedactedSecret } from '../../identityProvider/redactedSecret.ts';
import { startActorStack, type ActorStack } from '../support/actorStack.ts';
import { actionLinks, capturedMail } from '../support/capturedMail.ts';
import { eventually } from '../support/eventually.ts';
import { keycloakAdmin } from '../support/keycloakAdmin.ts';
import { keycloakSettings } from '../support/keycloakContext.ts';
import { startTcpProxy } from '../support/tcpProxy.ts';
import { uniqueSlug } from '../support/testService.ts';

/**
 * The four failure kinds of SPEC.md, each caused for real in (or in front of) the run's Keycloak: each ends in
 * idp.provision_failed, and once the cause is gone the operator's retry completes the provisioning.
 * Each test has a stack of its own, so an admin token cached by one provider never hides another test's cause.
 */
let stack: ActorStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

const startStack = async (settings: KeycloakSettings) => {
  stack = await startActorStack({ idp: () => new KeycloakIdentityProvider(settings) });
  return stack;
};

const auditOf = async (s: ActorStack, tenantId: string, action: string) =>
  (await s.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`)).body.items as Array<{ metadata: Record<string, unknown> }>;

/** Creates the tenant, expects 201 without invite_url and the failure of `kind` at `step`; returns the tenant id. */
async function createFailing(s: ActorStack, slug: string, email: string, kind: string, step: string): Promise<string> {
  const res = await s.service.request('POST', '/v1/tenants', { slug, name: `Failing ${slug}`, admin_email: email });
  expect(res.status).toBe(201);
  expect(res.body.invite_url ?? '').toBe('');
  const tenantId = res.body.tenant.id as string;
  const failed = await eventually(async () => (await auditOf(s, tenantId, 'idp.provision_failed'))[0], 20_000, 'idp.provision_failed');
  expect(failed.metadata).toMatchObject({ kind, step });
  expect(await auditOf(s, tenantId, 'idp.invite_sent')).toEqual([]);
  return tenantId;
}

/** The operator's retry (the API route that signals the tenant's workflow) completes provisioning: invite sent and mailed. */
async function retryCompletes(s: ActorStack, tenantId: string, email: string): Promise<void> {
  const signal = await s.service.request('POST', `/v1/tenants/${tenantId}/idp/retry-provisioning`, { requested_by: 'ops@example.com' });
  expect(signal.status).toBe(202);
  await eventually(async () => (await auditOf(s, tenantId, 'idp.invite_sent'))[0], 30_000, 'idp.invite_sent after the retry');
  const admin = await keycloakAdmin();
  const [organization] = await admin.organizations.find({ q: `tenant_id:${tenantId}`, exact: true });
  const [user] = await admin.users.find({ email, exact: true });
  expect(user?.attributes?.tenant_id).toEqual([tenantId]);
  expect((await admin.organizations.listMembers({ orgId: organization!.id! })).map((member) => member.id)).toEqual([user!.id]);
  // At least one: an invite call that timed out under load is retried and mails again (at-least-once delivery).
  const mails = await capturedMail(email);
  expect(mails.length).toBeGreaterThanOrEqual(1);
  expect(actionLinks(mails.at(-1)!)).toHaveLength(1);
}

describe('provisioning failures against Keycloak', () => {
  it('organization exists: an organization with the alias that is not the tenant\'s', async () => {
    const s = await startStack(keycloakSettings());
    const slug = uniqueSlug('kc-orgx');
    const admin = await keycloakAdmin();
    const { id: foreignId } = await admin.organizations.create({ name: `Someone else ${slug}`, alias: slug, domains: [{ name: `${slug}.foreign.invalid`, verified: false }] });
    const tenantId = await createFailing(s, slug, `a@${slug}.example`, 'organization_exists', 'organization');

    await admin.organizations.delById({ id: foreignId });
    await retryCompletes(s, tenantId, `a@${slug}.example`);
  });

  it('user exists: a user with the e-mail that is not the tenant\'s', async () => {
    const s = await startStack(keycloakSettings());
    const slug = uniqueSlug('kc-userx');
    const email = `a@${slug}.example`;
    const admin = await keycloakAdmin();
    const { id: foreignId } = await admin.users.create({ username: email, email, enabled: true });
    const tenantId = await createFailing(s, slug, email, 'user_exists', 'user');

    await admin.users.del({ id: foreignId });
    await retryCompletes(s, tenantId, email);
  });

  it('unauthorized: Keycloak refuses the admin client\'s secret', async () => {
    const settings = keycloakSettings({ clientSecret: new RedactedSecret('not-the-secret') });
    const s = await startStack(settings);
    const slug = uniqueSlug('kc-unauth');
    const tenantId = await createFailing(s, slug, `a@${slug}.example`, 'unauthorized', 'organization');

    // The operator corrects IDP_ADMIN_CLIENT_SECRET; the provider reads the secret at its next token request.
    settings.clientSecret = keycloakSettings().clientSecret;
    await retryCompletes(s, tenantId, `a@${slug}.example`);
  });

  it('unavailable: Keycloak cannot be reached (the connection to it is cut)', async () => {
    const direct = new URL(keycloakSettings().url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port) });
    try {
      const s = await startStack(keycloakSettings({ url: `http://${proxy.address}` }));
      proxy.cut();
      const slug = uniqueSlug('kc-unavail');
      const tenantId = await createFailing(s, slug, `a@${slug}.example`, 'unavailable', 'organization');

      proxy.restore();
      await retryCompletes(s, tenantId, `a@${slug}.example`);
    } finally {
      await proxy.close();
    }
  });
});
