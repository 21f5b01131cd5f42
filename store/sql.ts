/**
 * The slice of a `pg` pool the hot paths use: one statement with positional parameters ($1, $2, ...), rows back.
 * Single statements on the hot paths (verify, claims, audit listing and append) go through it rather than
 * EntityManager.execute, which formats every query in JavaScript and costs more CPU per call; the
 * changes of tenants, API keys and audit streams run theirs in one transaction on a connection of it
 * (store/nativeTransaction.ts).
 */
export interface Sql {
  query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  /**
   * A named statement: prepared once per connection and then only bound and executed, so PostgreSQL parses and
   * plans it once instead of on every call (with its generic plan once that is no worse than the custom ones).
   */
  query<R>(statement: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}
