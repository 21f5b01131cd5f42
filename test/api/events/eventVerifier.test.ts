import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openOrm, type Orm } from '../../../store/orm.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../support/scratchDatabase.ts';
import { startTestService, type TestService } from '../../support/testService.ts';

/**
 * `npm run verify-events` against copies of a log of this file's own (a scratch database the service runs on), so
 * that editing and removing events as the database owner disturbs no other test's log.
 */
let scratch: ScratchDatabase;
let appOrm: Orm;
let owner: pg.Client;
let service: TestService;
let folder: string;
beforeAll(async () => {
  scratch = await createScratchDatabase('event_verifier');
  await migrate(scratch.ownerUrl, scratch.runtimeUrl);
  appOrm = await openOrm(scratch.runtimeUrl, 3);
  service = await startTestService({}, { orm: appOrm });
  owner = new pg.Client({ connectionString: scratch.ownerUrl });
  await owner.connect();
  folder = await mkdtemp(join(tmpdir(), 'verify-events-'));
  for (let i = 0; i < 6; i += 1) {
    const response = await service.request('POST', '/v1/audit', { action: `verify.event_${i}`, actor_name: `Actor ${i}`, metadata: { n: i, half: i / 2, list: [i, 'x'] } });
    expect(response.status).toBe(201);
  }
});
afterAll(async () => {
  await service?.close();
  await appOrm?.close();
  await owner?.end();
  await scratch?.drop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const exported = async (query = '') => (await fetch(`${service.baseUrl}/v1/audit/export?format=cloudevents${query}`)).text();
const linesOf = (text: string) => text.split('\n').filter(Boolean);

let files = 0;
/** Runs the verifier as an operator would, on `text` saved as a file: its exit code and what it printed. */
async function verify(text: string, ...options: string[]): Promise<{ code: number; out: string }> {
  const file = join(folder, `copy-${(files += 1)}.ndjson`);
  await writeFile(file, text);
  const script = resolve(import.meta.dirname, '../../../scripts/verify-events.ts');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['--disable-proto=throw', script, file, ...options]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

async function asOwner(statement: string, values: unknown[]): Promise<void> {
  await owner.query('alter table audit_events disable trigger audit_events_append_only');
  try {
    await owner.query(statement, values);
  } finally {
    await owner.query('alter table audit_events enable trigger audit_events_append_only');
  }
}

describe('npm run verify-events', () => {
  it('passes an untouched export: every hash recomputed, each event following the one before', async () => {
    const result = await verify(await exported());
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/checked \d+ events .*: 0 hash mismatches, 0 gaps, 0 duplicates/);
  });

  it('names an event the database owner edited, as GET /v1/audit/integrity does', async () => {
    const events = linesOf(await exported()).map((line) => JSON.parse(line) as { id: string });
    const target = events[events.length - 3]!.id;
    // The owner edits the event and the CloudEvent stored with it alike, so the copy carries the edit.
    await asOwner(
      `update audit_events set metadata = '{"n": 99}', cloud_event = regexp_replace(cloud_event, '"data":\\{[^}]*\\}', '"data":{"n": 99}') where id = $1`,
      [target],
    );
    const result = await verify(await exported());
    expect(result.code).toBe(1);
    expect(result.out).toContain(`hash mismatch: event ${target}\n`);
    expect(result.out).toMatch(/: 1 hash mismatches, 0 gaps/);
    const integrity = (await service.request('GET', '/v1/audit/integrity')).body;
    expect(integrity).toMatchObject({ ok: false, first_bad_id: Number(target) });
  });

  it('names the gap where an event is missing from a copy, and a repeated delivery as a duplicate, not an error', async () => {
    const lines = linesOf(await exported());
    const gapped = [...lines.slice(0, 2), ...lines.slice(3)];
    const result = await verify(gapped.join('\n'));
    expect(result.out).toContain(`gap: events missing after event ${JSON.parse(lines[1]!).id} and before event ${JSON.parse(lines[3]!).id}`);
    const twice = await verify([lines[0], lines[0], lines[1]].join('\n'));
    expect(twice).toMatchObject({ code: 0 });
    expect(twice.out).toContain(`duplicate: event ${JSON.parse(lines[0]!).id}`);
  });

  it('catches the removal of the newest events against the last head a receiver saw', async () => {
    const lines = linesOf(await exported());
    const head = JSON.parse(lines.at(-1)!) as { sequence: string; chainhash: string; id: string };
    const kept = JSON.parse(lines.at(-3)!) as { id: string; hash: string };
    // The owner removes the two newest events and moves the chain's head back onto what is left: the log is
    // consistent again in itself, so only a copy of the head seen earlier tells.
    await asOwner('delete from audit_events where id > $1', [kept.id]);
    await owner.query('update audit_chain_head set last_id = e.id, last_hash = e.hash from audit_events e where e.id = $1', [kept.id]);
    const copy = await exported();
    expect((await verify(copy)).out).toMatch(/0 gaps/);
    const result = await verify(copy, '--head', `${head.sequence}:${head.chainhash}`);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`gap: events missing after event ${kept.id} through event ${head.id} (the head seen before)`);
  });

  it('reads a webhook receiver\'s captures and pages of the feed, and says so when a file is not a copy of events', async () => {
    const lines = linesOf(await exported()).slice(0, 3);
    const captures = lines.map((body) => JSON.stringify({ headers: { 'webhook-id': 'msg_1' }, body })).join('\n');
    expect(await verify(captures, '--filtered')).toMatchObject({ code: 0 });
    const page = (await fetch(`${service.baseUrl}/v1/events?limit=3`)).text();
    expect((await verify(await page)).out).toMatch(/checked 3 events/);
    expect(await verify('not json')).toMatchObject({ code: 2 });
  });
});
