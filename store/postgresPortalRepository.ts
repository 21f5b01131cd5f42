import type { PortalIntent } from '../domain/portal/portalIntent.ts';
import type { PortalLinkRecord, PortalSessionRecord } from '../domain/portal/portalRecords.ts';
import type { PortalLinkRefusal, PortalRepository } from '../domain/portal/portalRepository.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { isUuid } from './uuidShape.ts';

interface LinkRow {
  id: string;
  tenant_id: string;
  intent: PortalIntent;
  token_hash: Buffer;
  return_url: string | null;
  created_by: string;
  expires_at: Date | string;
  used_at: Date | string | null;
  created_at: Date | string;
}

interface SessionRow {
  id: string;
  link_id: string;
  tenant_id: string;
  intent: PortalIntent;
  session_hash: Buffer;
  csrf_token: string;
  created_by: string;
  return_url: string | null;
  last_seen_at: Date | string;
  created_at: Date | string;
}

const linkOf = (r: LinkRow): PortalLinkRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  intent: r.intent,
  tokenHash: r.token_hash,
  returnUrl: r.return_url,
  createdBy: r.created_by,
  expiresAt: new Date(r.expires_at),
  usedAt: r.used_at === null ? null : new Date(r.used_at),
  createdAt: new Date(r.created_at),
});

const sessionOf = (r: SessionRow): PortalSessionRecord => ({
  id: r.id,
  linkId: r.link_id,
  tenantId: r.tenant_id,
  intent: r.intent,
  sessionHash: r.session_hash,
  csrfToken: r.csrf_token,
  createdBy: r.created_by,
  returnUrl: r.return_url,
  lastSeenAt: new Date(r.last_seen_at),
  createdAt: new Date(r.created_at),
});

export class PostgresPortalRepository implements PortalRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  createLink(link: PortalLinkRecord, event: AuditAppend, meta: RequestMeta): Promise<PortalLinkRecord | undefined> {
    if (!isUuid(link.tenantId)) return Promise.resolve(undefined);
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [tenant] } = await sql.query<{ found: boolean }>({ name: 'portal_tenant_exists', text: 'select exists (select 1 from tenants where id = $1) as found', values: [link.tenantId] });
      if (!tenant!.found) return undefined;
      await sql.query({
        name: 'portal_link_insert',
        text: `insert into portal_links (id, tenant_id, intent, token_hash, return_url, created_by, expires_at, used_at, created_at) values ($1, $2, $3, $4, $5, $6, $7, null, $8)`,
        values: [link.id, link.tenantId, link.intent, link.tokenHash, link.returnUrl, link.createdBy, link.expiresAt, link.createdAt],
      });
      await appendAuditEvent(sql, event, meta);
      return link;
    });
  }

  openLink(
    tokenHash: Buffer,
    meta: RequestMeta,
    open: (link: PortalLinkRecord | undefined, now: Date) => { refused: PortalLinkRefusal } | { session: PortalSessionRecord; event: AuditAppend },
  ): Promise<{ refused: PortalLinkRefusal } | { session: PortalSessionRecord }> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<LinkRow>({ name: 'portal_link_locked', text: 'select * from portal_links where token_hash = $1 for update', values: [tokenHash] });
      const decided = open(row && linkOf(row), new Date());
      if ('refused' in decided) return decided;
      const s = decided.session;
      await sql.query({ name: 'portal_link_used', text: 'update portal_links set used_at = $2 where id = $1', values: [s.linkId, s.createdAt] });
      await sql.query({
        name: 'portal_session_insert',
        text: `insert into portal_sessions (id, link_id, tenant_id, intent, session_hash, csrf_token, created_by, return_url, last_seen_at, created_at)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        values: [s.id, s.linkId, s.tenantId, s.intent, s.sessionHash, s.csrfToken, s.createdBy, s.returnUrl, s.lastSeenAt, s.createdAt],
      });
      await appendAuditEvent(sql, decided.event, meta);
      return { session: s };
    });
  }

  async findSession(sessionHash: Buffer): Promise<PortalSessionRecord | undefined> {
    const { rows: [row] } = await (await nativePool(this.#orm)).query<SessionRow>({ name: 'portal_session_find', text: 'select * from portal_sessions where session_hash = $1', values: [sessionHash] });
    return row && sessionOf(row);
  }

  async touchSession(id: string, at: Date): Promise<void> {
    await (await nativePool(this.#orm)).query({ name: 'portal_session_touch', text: 'update portal_sessions set last_seen_at = greatest(last_seen_at, $2) where id = $1', values: [id, at] });
  }

  async endSession(id: string): Promise<void> {
    await (await nativePool(this.#orm)).query({ name: 'portal_session_end', text: 'delete from portal_sessions where id = $1', values: [id] });
  }
}
