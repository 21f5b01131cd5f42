import { PORTAL_LIFETIME_MS } from '../portal/portalSessionLimits.ts';

/**
 * The rows that nothing needs once they have ended, kept for a while after and then removed by the retention sweep
 * (workflows/retention/), each kind with its setting (docs/operators.md, "Retention"):
 * - `portal_links`: admin-portal links, ended when opened (or, never opened, when they expired), with their sessions;
 * - `actor_outbox`: hand-offs to the tenants' actors, ended when delivered (an undelivered or dead-lettered one never ends);
 * - `directory_tokens`: the token a directory's rotation replaced, ended when its grace did (its hash is cleared).
 */
export const RETAINED_ROWS = ['portal_links', 'actor_outbox', 'directory_tokens'] as const;
export type RetainedRows = (typeof RETAINED_ROWS)[number];

/** How long each kind is kept after it ended, in milliseconds (its setting). */
export type RetentionPeriods = Record<RetainedRows, number>;

/**
 * What still reads a row after it ended, whatever its setting says: the sessions a portal link opened go with it,
 * and live until PORTAL_LIFETIME_MS after it was opened.
 */
const KEPT_AT_LEAST: RetentionPeriods = { portal_links: PORTAL_LIFETIME_MS, actor_outbox: 0, directory_tokens: 0 };

/**
 * The instant before which a row of `rows` must have ended to be removed at `asOf`: its retention before it, and
 * never less than what still reads the row. A row that has not ended is never removed, whatever the instant.
 */
export function removableEndedBefore(rows: RetainedRows, periods: RetentionPeriods, asOf: number): Date {
  return new Date(asOf - Math.max(periods[rows], KEPT_AT_LEAST[rows]));
}
