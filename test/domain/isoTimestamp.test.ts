import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isoOfStoredTimestamp, isoTimestamp } from '../../domain/isoTimestamp.ts';
import { nativeTransaction } from '../../store/nativeTransaction.ts';
import { openOrm, type Orm } from '../../store/orm.ts';

/** A deterministic spread of instants, so a failure names one that can be replayed. */
function* instants(count: number, from: number, to: number): Generator<number> {
  let state = 12345;
  for (let i = 0; i < count; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    const high = state;
    state = (state * 1664525 + 1013904223) >>> 0;
    yield Math.floor(from + ((high * 2 ** 32 + state) / 2 ** 64) * (to - from));
  }
}

const YEAR_0 = new Date('0000-01-01T00:00:00.000Z').getTime();
const YEAR_10000 = 253_402_300_800_000;

describe('isoTimestamp', () => {
  it('writes what Date#toISOString writes for instants spread over the years 0 to 9999', () => {
    for (const ms of instants(200_000, YEAR_0, YEAR_10000)) {
      const date = new Date(ms);
      if (isoTimestamp(date) !== date.toISOString()) expect.fail(`${ms}: ${isoTimestamp(date)} instead of ${date.toISOString()}`);
    }
  });

  it('writes what Date#toISOString writes at the edges: epoch, leap days, centuries, the first and last instants it formats', () => {
    const edges = [
      '1970-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '2000-02-29T12:00:00.001Z', '1900-02-28T23:59:59.999Z',
      '1900-03-01T00:00:00.000Z', '2100-03-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z', '0000-01-01T00:00:00.000Z',
      '0000-02-29T00:00:00.000Z', '0099-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z',
    ];
    for (const iso of edges) expect(isoTimestamp(new Date(iso))).toBe(iso);
  });

  it('answers as Date#toISOString outside years 0 to 9999, and throws as it does for an invalid date', () => {
    for (const date of [new Date(YEAR_10000), new Date(YEAR_0 - 1), new Date(-8.64e15), new Date(8.64e15)]) expect(isoTimestamp(date)).toBe(date.toISOString());
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('isoOfStoredTimestamp', () => {
  it('rewrites PostgreSQL UTC text to the millisecond, cutting the fraction as a Date keeps it', () => {
    for (const text of ['2026-11-23 23:35:03+00', '2026-11-23 23:35:03.5+00', '2026-11-23 23:35:03.55+00', '2026-11-23 23:35:03.5501+00', '2026-11-23 23:35:03.999999+00', '2026-11-23 23:35:03.000001+00']) {
      expect(isoOfStoredTimestamp(text)).toBe(new Date(text).toISOString());
    }
    expect(isoOfStoredTimestamp('2026-11-23 23:35:03.5501+00')).toBe('2026-11-23T23:35:03.550Z');
  });

  it('goes through a Date for any other offset or form, and for a Date', () => {
    for (const text of ['2026-11-23 23:35:03.5501+02', '2026-11-23 23:35:03-05:30', '2026-11-23T23:35:03.123Z']) {
      expect(isoOfStoredTimestamp(text)).toBe(new Date(text).toISOString());
    }
    expect(isoOfStoredTimestamp(new Date('2026-11-23T23:35:03.123Z'))).toBe('2026-11-23T23:35:03.123Z');
  });

  describe('on what PostgreSQL writes', () => {
    let orm: Orm;
    beforeAll(async () => {
      orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
    });
    afterAll(() => orm.close());

    it('gives the instant PostgreSQL itself writes in ISO 8601 to the millisecond, whatever the fraction, in any session time zone', async () => {
      const literals = ['2026-11-23T23:35:03Z', '2026-11-23T23:35:03.5Z', '2026-11-23T23:35:03.5501Z', '2026-11-23T23:35:03.999999Z', '9999-12-31T23:59:59.999999Z'];
      // Year 1 in UTC only: elsewhere PostgreSQL writes its local mean time offset with seconds (+05:53:28), which no Date parses.
      for (const [zone, extra] of [['UTC', ['0001-01-01T00:00:00Z']], ['Asia/Kolkata', []]] as const) {
        const texts = await nativeTransaction(orm, async (sql) => {
          await sql.query(`set local time zone '${zone}'`);
          const { rows } = await sql.query<{ t: string; iso: string }>(
            `select t, to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as iso from unnest($1::timestamptz[]) as t`,
            [[...literals, ...extra]],
          );
          return rows;
        });
        // The service's sessions are UTC: its texts are the ones rewritten without a Date.
        if (zone === 'UTC') expect(texts.every(({ t }) => t.endsWith('+00'))).toBe(true);
        expect(texts.map(({ t }) => isoOfStoredTimestamp(t))).toEqual(texts.map(({ iso }) => iso));
      }
    });
  });
});
