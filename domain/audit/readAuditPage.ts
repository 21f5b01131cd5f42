import type { AuditRepository } from './auditRepository.ts';
import { DEEP_PAGE_MAX_AGE_SECONDS, ifNoneMatchNames, type DeepAuditPages } from './deepAuditPages.ts';
import type { AuditQuery } from '../schemas/audit.ts';

/** A page of GET /v1/audit, or `notModified` for a final page the client holds; a final page's ETag and caching. */
export type AuditPageAnswer =
  | { notModified: true; etag: string; cacheControl: string }
  | { notModified?: false; json: string; etag?: string; cacheControl?: string };

/**
 * One listing page. A page below the head that is final (deepAuditPages.ts) carries its ETag and may be reused by a
 * client or a proxy for a day; one the client names in If-None-Match is 304 — without reading the log when this
 * replica already knows the page is final. The head page and anything not yet final carry neither.
 * A page depends on the caller's token (a tenant-bound caller's pages hold its tenant alone): the answer varies on
 * Authorization, so a shared cache hands a page only to the token that read it.
 */
export async function readAuditPage(audit: AuditRepository, pages: DeepAuditPages, query: AuditQuery, ifNoneMatch: string | undefined): Promise<AuditPageAnswer> {
  const cacheControl = `public, max-age=${DEEP_PAGE_MAX_AGE_SECONDS}, immutable`;
  let etag = pages.isFinal(query) ? pages.etagOf(query) : undefined;
  if (etag !== undefined && ifNoneMatchNames(ifNoneMatch, etag)) return { notModified: true, etag, cacheControl };
  const { json, headId } = await audit.pageJson(query);
  if (headId !== undefined) pages.sawHead(headId);
  if (etag === undefined && pages.isFinal(query)) {
    // Final as of this read: the client's copy may match now.
    etag = pages.etagOf(query);
    if (ifNoneMatchNames(ifNoneMatch, etag)) return { notModified: true, etag, cacheControl };
  }
  return etag === undefined ? { json } : { json, etag, cacheControl };
}
