import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { PortalLinkRecord, PortalSessionRecord } from './portalRecords.ts';

/** Why a link opens no session: it names no link, it was opened already, or its minutes passed. */
export type PortalLinkRefusal = 'unknown' | 'used' | 'expired';

/** Portal links and sessions (store/postgresPortalRepository.ts). */
export interface PortalRepository {
  /** Writes the link with its event; undefined when the tenant does not exist. */
  createLink(link: PortalLinkRecord, event: AuditAppend, meta: RequestMeta): Promise<PortalLinkRecord | undefined>;
  /**
   * Locks the link holding the secret's hash, lets `open` say whether it opens (a refusal) or the session it starts,
   * then marks it used and writes the session with its event, in one transaction: a link opens once.
   */
  openLink(
    tokenHash: Buffer,
    meta: RequestMeta,
    open: (link: PortalLinkRecord | undefined, now: Date) => { refused: PortalLinkRefusal } | { session: PortalSessionRecord; event: AuditAppend },
  ): Promise<{ refused: PortalLinkRefusal } | { session: PortalSessionRecord }>;
  findSession(sessionHash: Buffer): Promise<PortalSessionRecord | undefined>;
  /** The session was used at `at` (its idle time starts again). */
  touchSession(id: string, at: Date): Promise<void>;
  endSession(id: string): Promise<void>;
}
