import { describe, expect, it } from 'vitest';
import { formatScaleTable, type ScalePass, type ScaleRow } from '../../bench/scaleTable.ts';
import type { LoadResult } from '../../bench/loadRun.ts';
import { markdownTableCells } from '../support/markdownTableCells.ts';

const result = (rps: number): LoadResult => ({ rps, p50: 1, p99: 2, errors: 0, requests: rps * 10, seconds: 10 });
const row = (name: string, rps: number, floorRps: number, pass = true): ScaleRow => ({ name, result: result(rps), base: result(floorRps), verdicts: [{ label: '>= 0.4× koa', pass }] });
const pass = (times: number, rows: ScaleRow[]): ScalePass => ({
  volumes: { tenants: 10_000 * times, apiKeys: 100_000 * times, auditEvents: 1_000_000 * times, sampleKeys: 10_000 },
  members: 10_000 * times,
  directoryUsers: 10_000 * times,
  rows,
});
const cells = markdownTableCells;

describe('the scale table', () => {
  it("judges a row's cost by its ratio to its own floor at each size, so the machine's drift between the passes cancels", () => {
    // The larger pass ran on a machine half as fast: half the throughput, half the floor, the same cost.
    const table = formatScaleTable([pass(1, [row('tenant list, first page', 20_000, 40_000)]), pass(10, [row('tenant list, first page', 10_000, 20_000)])], 'scale');
    expect(cells(table, 'tenant list, first page')).toEqual(['tenant list, first page', '20000', '0.50×', '10000', '0.50×', '1.00×', '—, —', 'PASS', 'PASS', 'PASS']);
  });

  it('passes a cost of at most 1.5× and misses one above it', () => {
    const table = formatScaleTable(
      [pass(1, [row('at the limit', 15_000, 20_000), row('past it', 15_100, 20_000)]), pass(10, [row('at the limit', 10_000, 20_000), row('past it', 10_000, 20_000)])],
      'scale',
    );
    expect(cells(table, 'at the limit').slice(5, 8)).toEqual(['1.50×', '—, —', 'PASS']);
    expect(cells(table, 'past it').slice(5, 8)).toEqual(['1.51×', '—, —', 'MISS']);
  });

  it('matches a row across the sizes without the size in its name, and shows each size\'s own targets', () => {
    const table = formatScaleTable(
      [
        pass(1, [{ ...row('members of a tenant, first page (10000 members)', 1_000, 40_000, false), cpuMs: 1.6 }]),
        pass(10, [{ ...row('members of a tenant, first page (100000 members)', 900, 40_000, false), cpuMs: 1.75 }]),
      ],
      'scale',
    );
    expect(cells(table, 'members of a tenant, first page')).toEqual([
      'members of a tenant, first page', '1000', '0.03×', '900', '0.02×', '1.11×', '1.600, 1.750', 'PASS', 'MISS (>= 0.4× koa)', 'MISS (>= 0.4× koa)',
    ]);
    expect(table).toContain('Larger: 100000 tenants, 1000000 API keys, 10000000 audit events, 100000 members in one tenant, 100000 SCIM users in one directory');
  });

  it('says a row the larger pass did not run is not run, instead of passing it', () => {
    const table = formatScaleTable([pass(1, [row('catalog', 30_000, 40_000)]), pass(10, [])], 'scale');
    expect(cells(table, 'catalog').slice(3, 8)).toEqual(['—', '—', '—', '—, —', 'not run']);
  });
});
