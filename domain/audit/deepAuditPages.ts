import { createHash } from 'node:crypto';
import { AUDIT_DEFAULT_LIMIT, type AuditQuery } from '../schemas/audit.ts';

/**
 * The page format's version in every deep page's ETag: a release that changes a page's bytes changes it too.
 * Raise it with any change to what an AuditEvent or a page looks like.
 */
const PAGE_FORMAT = 'audit-page-1';

/** How long a client or a proxy may reuse a deep page without asking (the token that read it may be revoked sooner). */
export const DEEP_PAGE_MAX_AGE_SECONDS = 86_400;

/**
 * Pages below the audit log's head never change (issue 40): the log is append-only, and an event's id is drawn under
 * the chain's lock and committed before the next is drawn, so once the chain's head has reached id H no event with
 * an id at or below H can still appear. A page with a cursor holds only events with ids below the cursor, so once
 * the head has reached `cursor - 1` its answer is final: the same query answers the same bytes forever.
 *
 * Such a page gets a strong ETag made from the query itself (the filters as applied, the tenant a bound caller is
 * limited to included, the limit, the cursor, the format's version), so a revalidation is answered 304 without reading
 * the log once this replica has seen a head that high.
 */
export class DeepAuditPages {
  #highestHead = 0;

  /** The chain head's id as a page read saw it: heads only grow. */
  sawHead(headId: number): void {
    if (headId > this.#highestHead) this.#highestHead = headId;
  }

  /** Whether a page of this query is already final, as far as the heads this replica saw tell. */
  isFinal(query: AuditQuery): boolean {
    return query.cursor !== undefined && query.cursor <= this.#highestHead + 1;
  }

  /** The strong ETag of a page of `query` (meaningful for a final page only). */
  etagOf(query: AuditQuery): string {
    const canonical = JSON.stringify([
      PAGE_FORMAT, query.tenant_id, query.product, query.actor_id, query.action, query.since, query.until, query.limit ?? AUDIT_DEFAULT_LIMIT, query.cursor,
    ]);
    return `"${createHash('sha256').update(canonical).digest('base64url')}"`;
  }
}

/** Whether an If-None-Match header names `etag` (a list, or `*`; a weak comparison, as RFC 9110 §13.1.2 asks). */
export function ifNoneMatchNames(header: string | undefined, etag: string): boolean {
  if (header === undefined || header === '') return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
