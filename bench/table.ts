import { markdownTable } from './markdownTable.ts';
import type { LoadResult } from './loadRun.ts';

export interface Row {
  name: string;
  connections: number;
  result: LoadResult & { rss: number };
  base: LoadResult & { rss: number };
  verdicts: { label: string; pass: boolean }[];
}

export interface RssRow {
  label: string;
  value: number;
  base: number;
  pass: boolean;
  target: string;
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0));
const ratio = (value: number, base: number) => `${(value / base).toFixed(value / base < 10 ? 2 : 1)}×`;

/** One Markdown table (it reads as well in a terminal as pasted into docs/performance.md). */
export function formatTable(summary: string[], rows: Row[], rss: RssRow): string {
  const header = ['scenario', 'conns', 'req/s', '×floor', 'p50 ms', '×floor', 'p99 ms', '×floor', 'errors', 'RSS MB', '×floor', 'target', 'result'];
  const body = rows.map((row) => {
    const { result: r, base: b } = row;
    const missed = row.verdicts.filter((v) => !v.pass).map((v) => v.label);
    return [
      row.name,
      String(row.connections),
      r.rps.toFixed(0),
      ratio(r.rps, b.rps),
      ms(r.p50),
      ratio(r.p50, b.p50),
      ms(r.p99),
      ratio(r.p99, b.p99),
      String(r.errors),
      mb(r.rss),
      ratio(r.rss, b.rss),
      row.verdicts.map((v) => v.label).join(', ') || '—',
      row.verdicts.length === 0 ? '—' : missed.length === 0 ? 'PASS' : `MISS (${missed.join(', ')})`,
    ];
  });
  body.push([rss.label, '', '', '', '', '', '', '', '', mb(rss.value), ratio(rss.value, rss.base), rss.target, rss.pass ? 'PASS' : 'MISS']);
  return markdownTable(summary, header, body, (i) => i >= 1 && i <= 10);
}
