import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openOrm, type Orm } from '../../store/orm.ts';
import { PostgresRetainedRows } from '../../store/postgresRetainedRows.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratchDatabase.ts';
import { RetainedRowSeeds } from '../support/retainedRowSeeds.ts';

/**
 * The retained rows' removal, statement by statement, on a database of this file's own: the statements are the
 * registry's, not a tenant's, so no other file's rows may be near them.
 */
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let scratch: ScratchDatabase;
let orm: Orm;
let store: PostgresRetainedRows;
let seeds: RetainedRowSeeds;

beforeAll(async () => {
  scratch = await createScratchDatabase('retained_rows');
  await migrate(scratch.ownerUrl, scratch.runtimeUrl);
  orm = await openOrm(scratch.runtimeUrl, 2);
  store = new PostgresRetainedRows(orm);
  seeds = new RetainedRowSeeds(scratch.ownerUrl);
});
afterAll(async () => {
  await seeds?.close();
  await orm?.close();
  await scratch?.drop();
});

/** Everything ended before this goes in these tests; the rows are placed around it. */
const cutoff = () => new Date(Date.now() - DAY);

describe('PostgresRetainedRows', () => {
  it('removes portal links opened or expired before the cutoff, with their sessions, and keeps a later one and an unused unexpired one', async () => {
    const tenant = await seeds.tenant();
    const now = Date.now();
    const opened = await seeds.portalLink(tenant, { usedAt: now - 2 * DAY, expiresAt: now - 2 * DAY + 15 * 60_000 });
    const expired = await seeds.portalLink(tenant, { expiresAt: now - 2 * DAY });
    const openedLater = await seeds.portalLink(tenant, { usedAt: now - HOUR, expiresAt: now - HOUR + 15 * 60_000 });
    const unused = await seeds.portalLink(tenant, { expiresAt: now + 10 * 60_000 });
    const links = [opened, expired, openedLater, unused];

    expect(await store.removeEnded('portal_links', cutoff(), 100)).toBe(2);
    expect(await seeds.left({ links })).toMatchObject({ links: [openedLater, unused].sort(), sessionsOfLinks: [openedLater] });
    // Twice: nothing more is due, and what is kept stays.
    expect(await store.removeEnded('portal_links', cutoff(), 100)).toBe(0);
    expect((await seeds.left({ links })).links).toEqual([openedLater, unused].sort());
  });

  it('removes hand-offs delivered before the cutoff; never one pending or dead-lettered, however old', async () => {
    const tenant = await seeds.tenant();
    const now = Date.now();
    const delivered = await seeds.handOff(tenant, { createdAt: now - 3 * DAY, deliveredAt: now - 2 * DAY });
    const deliveredLater = await seeds.handOff(tenant, { createdAt: now - 3 * DAY, deliveredAt: now - HOUR });
    const pending = await seeds.handOff(tenant, { createdAt: now - 30 * DAY });
    const deadLettered = await seeds.handOff(tenant, { createdAt: now - 30 * DAY, deadLetteredAt: now - 29 * DAY });
    const handOffs = [delivered, deliveredLater, pending, deadLettered];

    expect(await store.removeEnded('actor_outbox', cutoff(), 100)).toBe(1);
    expect((await seeds.left({ handOffs })).handOffs).toEqual([deliveredLater, pending, deadLettered].sort());
    expect(await store.removeEnded('actor_outbox', cutoff(), 100)).toBe(0);
    expect((await seeds.left({ handOffs })).handOffs).toEqual([deliveredLater, pending, deadLettered].sort());
  });

  it("clears a replaced directory token whose grace ended before the cutoff; keeps one still in its grace, and every directory", async () => {
    const tenant = await seeds.tenant();
    const now = Date.now();
    const ended = await seeds.directory(tenant, now - 2 * DAY);
    const endedLater = await seeds.directory(tenant, now - HOUR);
    const inGrace = await seeds.directory(tenant, now + 20 * HOUR);
    const directories = [ended, endedLater, inGrace];

    expect(await store.removeEnded('directory_tokens', cutoff(), 100)).toBe(1);
    expect((await seeds.left({ directories })).previousTokens).toEqual([endedLater, inGrace].sort());
    expect(await store.removeEnded('directory_tokens', cutoff(), 100)).toBe(0);
    expect(await seeds.directoriesLeft(directories)).toBe(3);
  });

  it('takes a backlog in batches of at most the limit, oldest first, each its own statement', async () => {
    const tenant = await seeds.tenant();
    const now = Date.now();
    const oldest = await seeds.handOff(tenant, { createdAt: now - 6 * DAY, deliveredAt: now - 5 * DAY });
    const older = await seeds.handOff(tenant, { createdAt: now - 6 * DAY, deliveredAt: now - 4 * DAY });
    const old = await seeds.handOff(tenant, { createdAt: now - 6 * DAY, deliveredAt: now - 3 * DAY });

    expect(await store.removeEnded('actor_outbox', cutoff(), 2)).toBe(2);
    expect((await seeds.left({ handOffs: [oldest, older, old] })).handOffs).toEqual([old]);
    expect(await store.removeEnded('actor_outbox', cutoff(), 2)).toBe(1);
    expect(await store.removeEnded('actor_outbox', cutoff(), 2)).toBe(0);
  });

  it("judges each row by its own times: one tenant's ended rows go, another tenant's rows inside their retention stay", async () => {
    const [gone, kept] = [await seeds.tenant(), await seeds.tenant()];
    const now = Date.now();
    const goneLink = await seeds.portalLink(gone, { expiresAt: now - 2 * DAY });
    const keptLink = await seeds.portalLink(kept, { usedAt: now - HOUR, expiresAt: now });
    const goneHandOff = await seeds.handOff(gone, { createdAt: now - 3 * DAY, deliveredAt: now - 2 * DAY });
    const keptHandOff = await seeds.handOff(kept, { createdAt: now - 3 * DAY, deliveredAt: now - HOUR });

    await store.removeEnded('portal_links', cutoff(), 100);
    await store.removeEnded('actor_outbox', cutoff(), 100);
    expect(await seeds.left({ links: [goneLink, keptLink], handOffs: [goneHandOff, keptHandOff] })).toMatchObject({ links: [keptLink], handOffs: [keptHandOff] });
  });
});
