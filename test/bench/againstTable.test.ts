import { describe, expect, it } from 'vitest';
import { formatAgainstTable, judge, type AgainstRow } from '../../bench/againstTable.ts';
import type { LoadResult } from '../../bench/loadRun.ts';
import { markdownTableCells } from '../support/markdownTableCells.ts';

const result = (rps: number): LoadResult => ({ rps, p50: 1, p99: 2, errors: 0, requests: rps * 10, seconds: 10 });
const row = (name: string, rps: number, floorRps: number, extra: Partial<AgainstRow> = {}): AgainstRow => ({ name, result: result(rps), base: result(floorRps), ...extra });
const cells = markdownTableCells;
const checkouts = { mine: 'this', theirs: 'that' };

describe('the table against another checkout', () => {
  it("judges a row by its ratio to its own floor, so the drift between the two runs of the row cancels", () => {
    // This checkout's run fell in a slower moment of the machine: half the throughput, half the floor.
    const table = formatAgainstTable([row('tenant by id', 10_000, 20_000)], [row('tenant by id', 20_000, 40_000)], 'against', checkouts);
    expect(cells(table, 'tenant by id')).toEqual(['tenant by id', '10000', '0.50×', '20000', '0.50×', '—, —', '1.00×', 'throughput', 'no']);
  });

  it('leaves a row whose floor never ran unjudged rather than calling it not slower', () => {
    const noFloor = (rps: number): AgainstRow => ({ name: 'tenant PATCH', result: result(rps), base: result(Number.NaN) });
    expect(judge(noFloor(1_000), noFloor(2_000))).toBeUndefined();
    expect(cells(formatAgainstTable([noFloor(1_000)], [noFloor(2_000)], 'against', checkouts), 'tenant PATCH').at(-1)).toBe('no floor measured');
  });

  it('calls a row slower only below 0.9× of the other checkout', () => {
    const table = formatAgainstTable(
      [row('at the margin', 9_000, 20_000), row('past it', 8_990, 20_000)],
      [row('at the margin', 10_000, 20_000), row('past it', 10_000, 20_000)],
      'against',
      checkouts,
    );
    expect(cells(table, 'at the margin').slice(6)).toEqual(['0.90×', 'throughput', 'no']);
    expect(cells(table, 'past it').slice(6)).toEqual(['0.90×', 'throughput', 'SLOWER']);
  });

  it('judges a paced row both checkouts kept up with by its CPU a request, as its throughput is the offered rate', () => {
    const mine = row('verify, 1000/s offered', 999, 999, { rate: 1000, cpuMs: 0.5 });
    expect(judge(mine, row('verify, 1000/s offered', 1000, 999, { rate: 1000, cpuMs: 0.4 }))).toEqual({ measure: 'CPU a request', change: 0.8, slower: true });
    expect(judge(mine, row('verify, 1000/s offered', 1000, 999, { rate: 1000, cpuMs: 0.6 }))).toMatchObject({ measure: 'CPU a request', slower: false });
  });

  it('judges a paced row that fell behind its rate by its throughput', () => {
    const verdict = judge(row('tenant creation, 25/s offered', 15, 9_000, { rate: 25, cpuMs: 100 }), row('tenant creation, 25/s offered', 20, 9_000, { rate: 25, cpuMs: 80 }));
    expect(verdict).toEqual({ measure: 'throughput', change: 0.75, slower: true });
  });

  it('says which rows the other checkout did not run', () => {
    const table = formatAgainstTable([row('append to receiver', 500, 500)], [], 'against', checkouts);
    expect(cells(table, 'append to receiver').slice(3)).toEqual(['—', '—', '—, —', '—', '—', 'not run against']);
  });
});
