/** The trimmed cells of the Markdown table row whose first cell is `name`. */
export const markdownTableCells = (table: string, name: string): string[] =>
  table
    .split('\n')
    .find((line) => line.startsWith(`| ${name} `))!
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
