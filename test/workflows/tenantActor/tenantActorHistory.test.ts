import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import proto from '@temporalio/proto';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

let stack: ActorStack;
beforeAll(async () => {
  // Authentication is off in this stack: the codec endpoint an operator decodes with must be opened for it.
  stack = await startActorStack({ settings: { CODEC_ENDPOINT_ENABLED: true } });
});
afterAll(() => stack.close());

/** Every Payload message in a decoded history, wherever it sits (inputs, results, update outcomes, markers). */
function payloadsIn(value: unknown, found: { metadata?: Record<string, Uint8Array>; data?: Uint8Array }[] = []) {
  if (value && typeof value === 'object') {
    if (value instanceof Uint8Array) return found;
    if ('data' in value && value.data instanceof Uint8Array && 'metadata' in value) found.push(value as never);
    else for (const child of Object.values(value)) payloadsIn(child, found);
  }
  return found;
}

describe("a provisioned tenant's workflow history", () => {
  it('holds no invite URL and no e-mail address in clear text; the codec endpoint decodes them for an operator', async () => {
    const slug = uniqueSlug('secret');
    const email = `admin@${slug}.example`;
    const created = await stack.service.request('POST', '/v1/tenants', { slug, name: 'Secret', admin_email: email });
    expect(created.status).toBe(201);
    const inviteUrl: string = created.body.invite_url;
    expect(inviteUrl).toBeTruthy();
    const inviteKey = new URL(inviteUrl).searchParams.get('key')!;
    const tenantId: string = created.body.tenant.id;
    const handle = stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenantId));
    await eventually(async () => (await stack.service.request('GET', `/v1/audit?tenant_id=${tenantId}&action=idp.invite_sent`)).body.items.length === 1, 10_000, 'invite sent');

    // The history as Temporal stores and serves it: raw bytes, and every payload in it.
    const { history } = await stack.dispatcher.client.workflowService.getWorkflowExecutionHistory({
      namespace: 'default',
      execution: { workflowId: handle.workflowId },
    });
    const raw = Buffer.from(proto.temporal.api.history.v1.History.encode(history!).finish()).toString('latin1');
    expect(raw).not.toContain(email);
    expect(raw).not.toContain(inviteKey);
    expect(raw).not.toContain(slug);
    const payloads = payloadsIn(history);
    expect(payloads.length).toBeGreaterThan(5);

    // The Web UI's codec endpoint turns them back into what the workflow saw.
    const body = {
      payloads: payloads.map((p) => ({
        metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
        data: Buffer.from(p.data ?? []).toString('base64'),
      })),
    };
    const decoded = await stack.service.request('POST', '/codec/decode', body, { 'x-namespace': 'default' });
    expect(decoded.status).toBe(200);
    const clear = decoded.body.payloads.map((p: { data: string }) => Buffer.from(p.data, 'base64').toString()).join('\n');
    expect(clear).toContain(email);
    expect(clear).toContain(inviteKey);
  });

  it("keeps no invite URL in the actor's state once the creation was answered", async () => {
    const slug = uniqueSlug('state');
    const created = await stack.service.request('POST', '/v1/tenants', { slug, name: 'State', admin_email: `admin@${slug}.example` });
    const state = await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(created.body.tenant.id)).query(actorStateQuery);
    expect(state.provisioning).toBe('succeeded');
    expect(JSON.stringify(state)).not.toContain(new URL(created.body.invite_url).searchParams.get('key')!);
  });

  it('answers the Web UI preflight for its origin only, before authentication', async () => {
    const origin = `http://127.0.0.1:${stack.service.deps.settings.TEMPORAL_UI_PORT}`;
    const preflight = await fetch(`${stack.service.baseUrl}/codec/decode`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/x-namespace/);
    const stranger = await fetch(`${stack.service.baseUrl}/codec/decode`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});
