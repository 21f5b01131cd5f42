import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate } from '../../store/orm.ts';
import { checkAppendedEvents } from './appendedEventsCheck.ts';
import { createScratchDatabase, type ScratchDatabase } from './scratchDatabase.ts';

/** The suite's hook on a database of this file's own: it passes a log that fits the catalog and fails one that does not. */
let scratch: ScratchDatabase;
let client: pg.Client;
beforeAll(async () => {
  scratch = await createScratchDatabase('appended_events_check');
  await migrate(scratch.ownerUrl);
  client = new pg.Client({ connectionString: scratch.ownerUrl });
  await client.connect();
});
afterAll(async () => {
  await client?.end();
  await scratch?.drop();
});

const append = (action: string, metadata: unknown) => client.query('insert into audit_events (action, metadata) values ($1, $2)', [action, metadata === undefined ? null : JSON.stringify(metadata)]);

describe('the check of every event a run appends', () => {
  it("passes the service's own events that fit their types and a caller's events of any action", async () => {
    await append('tenant.created', { kind: 'customer', plan: 'starter', status: 'trial', admin_invited: false });
    await append('api_key.revoked', { prefix: 'trk_abc', portal: { session_id: 's-1', intent: 'members' } });
    await append('audit.stream_deleted', undefined);
    await append('billing.invoice_paid', { amount: 12.5 });
    const { rows } = await client.query<{ count: string }>('select count(*) from audit_events');
    await expect(checkAppendedEvents(scratch.ownerUrl)).resolves.toEqual({ checked: Number(rows[0]!.count) });
  });

  it('fails on an event of an unknown type under the service\'s prefixes, and on metadata its type does not allow, naming each', async () => {
    await append('tenant.teleported', {});
    await append('tenant.trial_ending', { days_left: 'three', trial_ends_at: '2026-12-24T00:00:00.000Z' });
    const failure = await checkAppendedEvents(scratch.ownerUrl).catch((error: Error) => error.message);
    expect(failure).toMatch(/^2 of the \d+ events/);
    expect(failure).toContain('unknown event type "tenant.teleported"');
    expect(failure).toMatch(/tenant\.trial_ending: .*days_left/s);
  });
});
