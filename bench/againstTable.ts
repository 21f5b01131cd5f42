import { markdownTable } from './markdownTable.ts';
import type { LoadResult } from './loadRun.ts';

/**
 * How far below the other checkout a row may fall before it counts as slower: runs of the same code, interleaved
 * between runs of one floor, still differ by this much from one row to the next.
 */
export const SLOWER_MARGIN = 0.9;

export interface AgainstRow {
  name: string;
  result: LoadResult;
  /** Its floor, run right before and right after it (or the mean of every run of its floor). */
  base: LoadResult;
  /** The rate it was offered, for a paced row. */
  rate?: number;
  /** CPU ms a request, every process's (the load generator's too). */
  cpuMs?: number;
}

/** A paced row that kept up with its offered rate says nothing by its throughput: its CPU a request is its cost. */
const keptUp = (row: AgainstRow) => row.rate !== undefined && row.result.rps >= 0.95 * row.rate;
const ratio = (row: AgainstRow) => row.result.rps / row.base.rps;

export type Judgement = { measure: 'throughput' | 'CPU a request'; change: number; slower: boolean };

/**
 * This checkout's row against the other's: by throughput against each one's floor, or, when both kept up with a paced
 * rate, by the CPU a request cost (lower is better, so the change is the other's over this one's).
 */
export function judge(mine: AgainstRow, theirs: AgainstRow): Judgement | undefined {
  if (keptUp(mine) && keptUp(theirs)) {
    if (mine.cpuMs === undefined || theirs.cpuMs === undefined) return undefined;
    const change = theirs.cpuMs / mine.cpuMs;
    return { measure: 'CPU a request', change, slower: change < SLOWER_MARGIN };
  }
  const change = ratio(mine) / ratio(theirs);
  // A floor that never ran leaves no ratio: unjudged, not "no".
  if (!Number.isFinite(change)) return undefined;
  return { measure: 'throughput', change, slower: change < SLOWER_MARGIN };
}

const cpu = (row: AgainstRow | undefined) => (row?.cpuMs === undefined ? '—' : row.cpuMs.toFixed(3));

/**
 * One Markdown table: each row on this checkout and on the other, their ratios to the floor, the CPU a request, and
 * whether this checkout is slower by more than SLOWER_MARGIN allows.
 */
export function formatAgainstTable(mine: AgainstRow[], theirs: AgainstRow[], title: string, checkouts: { mine: string; theirs: string }): string {
  const header = ['row', 'this req/s', '×floor', 'against req/s', '×floor', 'CPU ms/req this, against', 'this / against', 'measure', `slower (< ${SLOWER_MARGIN}×)`];
  const body = mine.map((row) => {
    const other = theirs.find((candidate) => candidate.name === row.name);
    const verdict = other ? judge(row, other) : undefined;
    return [
      row.name,
      row.result.rps.toFixed(0),
      `${ratio(row).toFixed(2)}×`,
      other ? other.result.rps.toFixed(0) : '—',
      other ? `${ratio(other).toFixed(2)}×` : '—',
      `${cpu(row)}, ${cpu(other)}`,
      verdict ? `${verdict.change.toFixed(2)}×` : '—',
      verdict?.measure ?? '—',
      !other ? 'not run against' : !verdict ? (keptUp(row) && keptUp(other) ? 'no CPU measured' : 'no floor measured') : verdict.slower ? 'SLOWER' : 'no',
    ];
  });
  const summary = [
    title,
    `This checkout: ${checkouts.mine}; against: ${checkouts.theirs}`,
    'Both served at once on the same volumes, each row run on one then the other (the order alternating) between runs of one floor; a paced row both kept up with is judged by its CPU a request',
  ];
  return markdownTable(summary, header, body, (i) => (i >= 1 && i <= 4) || i === 6);
}
