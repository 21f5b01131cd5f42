/**
 * A titled Markdown table, its columns padded to their widest cell and the numeric ones right-aligned: it reads as well
 * in a terminal as pasted into docs/performance.md.
 */
export function markdownTable(summary: string[], header: string[], body: string[][], numeric: (column: number) => boolean): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (numeric(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return `\n${summary.join('\n')}\n\n${[line(header), rule, ...body.map(line)].join('\n')}\n\n`;
}
