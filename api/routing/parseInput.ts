import type { z } from 'zod';
import { invalidInput } from '../../domain/errors.ts';

function describeIssues(error: z.ZodError, where: string): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${[where, ...issue.path].join('.')}: ${issue.message}`)
    .join('; ');
}

/** The input as the schema makes it, or invalid_input naming the first problems. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidInput(describeIssues(result.error, where));
  return result.data;
}

/** Deeper JSON is no real use and makes PostgreSQL's jsonb (and recursive code) fail: a 400, not a 500. */
const MAX_JSON_DEPTH = 64;

/**
 * What PostgreSQL would refuse as a database error (500) is invalid input (400): U+0000 in any string or key
 * (text and jsonb cannot hold it) and absurd nesting. Iterative, so deep input cannot overflow the stack here.
 */
export function jsonInputProblem(value: unknown): string | undefined {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return 'NUL characters are not allowed';
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_JSON_DEPTH) return `nesting deeper than ${MAX_JSON_DEPTH} levels is not allowed`;
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return 'NUL characters are not allowed';
        pending.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}
