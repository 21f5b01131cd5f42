import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedIdentityProvider } from '../../../identityProvider/simulatedIdentityProvider.ts';
import { actorStateQuery, tenantActorWorkflowId } from '../../../workflows/tenantActor/tenantActorMessages.ts';
import { startActorStack, type ActorStack } from '../../support/actorStack.ts';
import { refusingProvider } from '../../support/refusingProvider.ts';
import { eventually } from '../../support/eventually.ts';
import { uniqueSlug } from '../../support/testService.ts';

/**
 * An identity provider's first sync of a directory (SPEC-EXTENSIONS §10, issue 38): 1,000 user creations as fast as
 * the directory's budget lets a client that honours 429's Retry-After, as Okta and Entra ID do; the provider refusing
 * some users for a while. Every user becomes one member and one provider user; nothing is dropped, nothing doubled.
 */
const USERS = 1_000;
const IN_FLIGHT = 8;
/** Every 100th user's provider user is refused four times: past the three attempts of the retry policy. */
const REFUSED_EVERY = 100;

let stack: ActorStack;
const refusedLeft = new Map<string, number>();

beforeAll(async () => {
  stack = await startActorStack({
    // A budget below what the registry serves eight requests in flight on a loaded machine, so the client is throttled
    // whatever the load beside it: a closed-loop client never outruns a registry slower than its budget, as a loaded
    // run at the default budget was.
    settings: { SCIM_RATE_LIMIT_PER_SECOND: 10 },
    // The users the test names are refused by the provider (a Keycloak answering 503) while they have refusals left.
    idp: (service) =>
      refusingProvider(new SimulatedIdentityProvider(service.deps.orm, service.baseUrl), 'ensureDirectoryUser', (_tenant, email) => {
        const left = refusedLeft.get(email) ?? 0;
        if (left === 0) return undefined;
        refusedLeft.set(email, left - 1);
        return 'unavailable';
      }),
  });
});
afterAll(() => stack.close());

const sql = (text: string, values: unknown[]) => stack.service.orm.em.fork().execute<Record<string, any>[]>(text, values);

describe("a directory's first sync", () => {
  it('absorbs a burst of 1,000 user creations: each user one active member and one provider user, the refused ones retried, none twice', async () => {
    const tenant = (await stack.service.request('POST', '/v1/tenants', { slug: uniqueSlug('burst'), name: 'First sync' })).body.tenant as { id: string; slug: string };
    const directory = (await stack.service.request('POST', `/v1/tenants/${tenant.id}/directories`, {})).body as { id: string; token: string };
    const headers = { authorization: `Bearer ${directory.token}`, 'content-type': 'application/scim+json' };
    const emails = Array.from({ length: USERS }, (_, i) => `user${i}@${tenant.slug}.example`);
    emails.forEach((email, i) => i % REFUSED_EVERY === 0 && refusedLeft.set(email, 4));

    let throttled = 0;
    const create = async (email: string): Promise<number> => {
      for (;;) {
        const res = await stack.service.request('POST', `/scim/v2/directories/${directory.id}/Users`, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, emails: [{ value: email, primary: true }], active: true }, headers);
        if (res.status !== 429) return res.status;
        throttled += 1;
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      }
    };
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (next < emails.length) statuses.push(await create(emails[next++]!));
    }));
    expect(statuses.filter((s) => s === 201)).toHaveLength(USERS);
    expect(throttled).toBeGreaterThan(0);
    // A client that lost an answer sends the creation again: the user is there already, nothing is made twice.
    expect(await Promise.all(emails.slice(0, 5).map(create))).toEqual([409, 409, 409, 409, 409]);

    const members = async () => (await sql(`select count(*)::int as n, count(distinct email)::int as distinct_emails from members where tenant_id = ? and source = 'directory' and status = 'active'`, [tenant.id]))[0]!;
    await eventually(async () => (await members()).n === USERS, 180_000, `${USERS} active members`);
    expect(await members()).toEqual({ n: USERS, distinct_emails: USERS });
    const providerUsers = (await sql(`select count(*)::int as n, count(distinct lower(email))::int as distinct_emails from idp_sim_users where email like ?`, [`%@${tenant.slug}.example`]))[0];
    expect(providerUsers).toEqual({ n: USERS, distinct_emails: USERS });
    const linked = (await sql('select count(*)::int as n from directory_users where directory_id = ? and user_id is not null and deleted_at is null', [directory.id]))[0];
    expect(linked!.n).toBe(USERS);
    expect((await stack.service.request('GET', `/scim/v2/directories/${directory.id}/Users?count=1`, undefined, headers)).body.totalResults).toBe(USERS);
    // The refused users: each failure audited once, then retried on the actor's timer until made.
    const failures = (await sql(`select count(distinct target_id)::int as n, count(*)::int as events from audit_events where tenant_id = ? and action = 'idp.directory_sync_failed'`, [tenant.id]))[0];
    expect(failures).toEqual({ n: USERS / REFUSED_EVERY, events: USERS / REFUSED_EVERY });
    expect([...refusedLeft.values()].every((left) => left === 0)).toBe(true);
    // The actor clears a failure when it takes in the activity's success, a moment after the provider user is made.
    const syncFailures = async () => (await stack.dispatcher.client.workflow.getHandle(tenantActorWorkflowId(tenant.id)).query(actorStateQuery)).directorySync;
    await eventually(async () => (await syncFailures()) === undefined, 30_000, 'no directory sync failure left in the actor');
  }, 300_000);
});
