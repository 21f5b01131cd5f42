import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthConfig } from '../../../api/auth/authConfig.ts';
import { clearFaults, injectFault } from '../../../store/simulatorControl.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { startOidcIssuer, type OidcIssuer } from '../../support/oidcIssuer.ts';
import { uniqueSlug } from '../../support/testService.ts';

let issuer: OidcIssuer;
let stack: ActorStack;
beforeAll(async () => {
  issuer = await startOidcIssuer();
  stack = await startActorStack({ authConfig: loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_ISSUER: issuer.issuer }) });
});
afterAll(async () => {
  await stack?.close();
  await issuer?.close();
});

const bearer = async (client: string, scope: string) => ({
  authorization: `Bearer ${await issuer.sign({ aud: 'tenant-registry', azp: client, scope })}`,
});
const admin = () => bearer('admin-tooling', 'registry:admin');

type AuditItem = { metadata: Record<string, unknown> };
const auditOf = async (tenantId: string, action: string): Promise<AuditItem[]> =>
  (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=${action}`, undefined, await admin())).body.items;

async function createTenant(slug: string): Promise<string> {
  const res = await stack.service.request('POST', '/v1/tenants', { slug, name: `Tenant ${slug}`, admin_email: `admin@${slug}.example` }, await admin());
  expect(res.status).toBe(201);
  return res.body.tenant.id;
}

describe('operator signals through the API with AUTH_ENABLED', () => {
  it("resend records the token's client as requested_by and the body's requested_by only as a note", async () => {
    const tenantId = await createTenant(uniqueSlug('opsig'));
    const res = await stack.service.request('POST', `/v1/tenants/${tenantId}/idp/resend-invite`, { requested_by: 'mallory' }, await bearer('support-desk', 'provisioning:operate'));
    expect(res.status).toBe(202);
    const resent = await eventually(async () => (await auditOf(tenantId, 'idp.invite_sent')).find((e) => e.metadata.resend === true), 10_000, 'the resend');
    expect(resent!.metadata).toMatchObject({ requested_by: 'support-desk', note: 'mallory', requested_via: 'api' });
  });

  it("retry records the token's client as requested_by; without a body there is no note", async () => {
    const failing = uniqueSlug('opsigf');
    await injectFault(stack.service.orm, { kind: 'unauthorized', tenantSlug: failing });
    const failedId = await createTenant(failing);
    await eventually(async () => (await auditOf(failedId, 'idp.provision_failed'))[0], 10_000, 'the failure');
    await clearFaults(stack.service.orm, { tenantSlug: failing });
    const res = await stack.service.request('POST', `/v1/tenants/${failedId}/idp/retry-provisioning`, undefined, await bearer('ops-console', 'provisioning:operate'));
    expect(res.status).toBe(202);
    const sent = await eventually(async () => (await auditOf(failedId, 'idp.invite_sent'))[0], 10_000, 'the retried provisioning');
    expect(sent.metadata).toMatchObject({ requested_by: 'ops-console', requested_via: 'api' });
    expect(sent.metadata).not.toHaveProperty('note');
  });
});
