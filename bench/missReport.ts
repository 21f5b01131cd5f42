import { formatCpuProfileSummary, type CpuProfileSummary } from './cpuProfileSummary.ts';
import type { RequestCpu } from './processTree.ts';

/** What the bench knows about a row that missed a target: enough to say where its time went. */
export interface MissReport {
  name: string;
  missed: string[];
  /** CPU milliseconds a request during the row, per process group and together (none for a second API process's row). */
  cpu?: RequestCpu;
  /**
   * The rate the target asks for. At it the API, whose JavaScript runs on one thread, has 1000 / rate ms a request,
   * and the machine's cores `cores × 1000 / rate` ms, every process together (the load generator's included).
   */
  targetRate?: number;
  /** The API's CPU profile during the row (`--row-profiles`). */
  profile?: CpuProfileSummary;
}

export function formatMissReports(reports: MissReport[], cores: number, profiled: boolean): string {
  if (reports.length === 0) return '';
  const lines = reports.flatMap((report) => [
    `${report.name}: MISS (${report.missed.join(', ')})`,
    ...(report.cpu
      ? [
          `  CPU ms a request: ${report.cpu.byGroup || 'under 0.0005 in every process'} (together ${report.cpu.total.toFixed(2)})` +
            (report.targetRate
              ? `. At the target's ${Math.round(report.targetRate)}/s: ${(1000 / report.targetRate).toFixed(2)} ms for the API's one JavaScript thread, ` +
                `${((cores * 1000) / report.targetRate).toFixed(2)} ms for every process together on the ${cores} cores`
              : ''),
        ]
      : []),
    ...(report.profile ? formatCpuProfileSummary(report.profile) : []),
  ]);
  const heading = profiled
    ? 'Where the time went in the rows that missed (CPU from /proc during the row; self time from a CPU profile of the API process over a re-run of the row after the table):'
    : 'Where the time went in the rows that missed (CPU from /proc during the row; --row-profiles adds the API process\'s CPU profile of each):';
  return `${heading}\n\n${lines.join('\n')}\n\n`;
}
