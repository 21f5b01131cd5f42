import { markdownTable } from './markdownTable.ts';
import type { LoadResult } from './loadRun.ts';
import type { Volumes } from './seed.ts';

/** How much more a request may cost at the larger size than at the smaller, each against its own floor (issue 63). */
export const SCALE_COST_LIMIT = 1.5;

export interface ScaleRow {
  name: string;
  result: LoadResult;
  /** Its floor, run right before and right after it. */
  base: LoadResult;
  /** CPU ms a request, every process's (the load generator's too). */
  cpuMs?: number;
  /** The row's own targets at this size (an audit page's >= 0.5× the fixed-page floor, say). */
  verdicts: { label: string; pass: boolean }[];
}

/** The list and page rows measured at one size. */
export interface ScalePass {
  volumes: Volumes;
  members: number;
  directoryUsers: number;
  rows: ScaleRow[];
}

/** A row's name without the size it was measured at: the members row's "(10000 members)", say. */
export const sizeless = (name: string) => name.replace(/ \(\d+ [a-z]+\)$/, '');

const ratio = (row: ScaleRow) => row.result.rps / row.base.rps;
const cpu = (row: ScaleRow) => (row.cpuMs === undefined ? '—' : row.cpuMs.toFixed(3));

const ownTargets = (row: ScaleRow | undefined) =>
  !row ? 'not run' : row.verdicts.length === 0 ? '—' : row.verdicts.every((v) => v.pass) ? 'PASS' : `MISS (${row.verdicts.filter((v) => !v.pass).map((v) => v.label).join(', ')})`;

/**
 * One Markdown table: each row at the smaller and the larger size, its cost there as its floor's throughput over its
 * own (what drift is left between the two runs of a row cancels), and whether the larger size's cost stays within
 * SCALE_COST_LIMIT of the smaller's.
 */
export function formatScaleTable(passes: ScalePass[], title: string): string {
  const [smaller, larger] = passes as [ScalePass, ScalePass];
  const sizeOf = (pass: ScalePass) =>
    `${pass.volumes.tenants} tenants, ${pass.volumes.apiKeys} API keys, ${pass.volumes.auditEvents} audit events, ${pass.members} members in one tenant, ${pass.directoryUsers} SCIM users in one directory`;
  const header = ['row', 'smaller req/s', '×floor', 'larger req/s', '×floor', 'cost larger/smaller', 'CPU ms/req smaller, larger', `target <= ${SCALE_COST_LIMIT}×`, 'own targets, smaller', 'own targets, larger'];
  const body = smaller.rows.map((row) => {
    const name = sizeless(row.name);
    const other = larger.rows.find((candidate) => sizeless(candidate.name) === name);
    const cost = other ? ratio(row) / ratio(other) : undefined;
    return [
      name,
      row.result.rps.toFixed(0),
      `${ratio(row).toFixed(2)}×`,
      other ? other.result.rps.toFixed(0) : '—',
      other ? `${ratio(other).toFixed(2)}×` : '—',
      cost === undefined ? '—' : `${cost.toFixed(2)}×`,
      `${cpu(row)}, ${other ? cpu(other) : '—'}`,
      cost === undefined ? 'not run' : cost <= SCALE_COST_LIMIT ? 'PASS' : 'MISS',
      ownTargets(row),
      ownTargets(other),
    ];
  });
  const summary = [
    title,
    `Smaller: ${sizeOf(smaller)}`,
    `Larger: ${sizeOf(larger)}`,
    'Both sizes served at once, each row run at one size then the other between runs of one floor; cost = ×floor at the smaller size over ×floor at the larger',
  ];
  return markdownTable(summary, header, body, (i) => i >= 1 && i <= 5);
}
