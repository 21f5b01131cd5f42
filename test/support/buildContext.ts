import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface IgnoreRule {
  pattern: RegExp;
  /** A `!` line: what it matches is sent after all. */
  keep: boolean;
  /** The pattern as written, for telling whether a folder holds something a `!` line keeps. */
  source: string;
}

/** A .dockerignore pattern, relative to the context's root: `*` and `?` within one segment, `**` across segments. */
function ruleOf(line: string): IgnoreRule {
  const keep = line.startsWith('!');
  const source = (keep ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
  const body = source
    .split(/(\*\*|\*|\?)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { pattern: new RegExp(`^${body}$`), keep, source };
}

/** Whether Docker leaves `path` out: the last rule matching it or a folder above it decides. */
function ignored(rules: IgnoreRule[], path: string): boolean {
  const segments = path.split('/');
  let out = false;
  for (const rule of rules) {
    for (let depth = 1; depth <= segments.length; depth += 1) {
      if (rule.pattern.test(segments.slice(0, depth).join('/'))) {
        out = !rule.keep;
        break;
      }
    }
  }
  return out;
}

/**
 * Copies what `docker build` would send of `root` (its .dockerignore applied) into `target`, so a test can do with
 * it what the Dockerfile does. Symbolic links are left out: the context's only ones are installs of this machine.
 */
export async function copyBuildContext(root: string, target: string): Promise<string[]> {
  const rules = (await readFile(join(root, '.dockerignore'), 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map(ruleOf);
  const copied: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        // A folder left out is still entered when a `!` rule keeps something beneath it.
        if (ignored(rules, path) && !rules.some((rule) => rule.keep && rule.source.startsWith(`${path}/`))) continue;
        await walk(path);
      } else if (entry.isFile() && !ignored(rules, path)) {
        await mkdir(join(target, relative), { recursive: true });
        await copyFile(join(root, path), join(target, path));
        copied.push(path);
      }
    }
  };
  await walk('');
  return copied;
}
