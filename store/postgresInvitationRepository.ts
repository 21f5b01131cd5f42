import type { InvitationRecord, InvitationState } from '../domain/invitations/invitationRecord.ts';
import type {
  InvitationChange,
  InvitationChangeWritten,
  InvitationListFilter,
  InvitationListPosition,
  InvitationRepository,
  InvitationTarget,
} from '../domain/invitations/invitationRepository.ts';
import type { MemberRecord } from '../domain/members/memberRecord.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { InvitationChangeFacts, ListedInvitation } from '../domain/invitations/invitationRepository.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import { lockKnownRoles, lockMembersOf, memberOf, memberWithEmail, writeMember } from './postgresMemberRepository.ts';
import type { Sql } from './sql.ts';
import { INVITATION_JSON_SQL } from './invitationJsonSql.ts';
import { isUuid } from './uuidShape.ts';
import { INVITATION_SENDS_WINDOW_MS } from '../domain/tenants/tenantLimits.ts';

const COLUMNS = `id, tenant_id, email, roles, state, expires_at, invited_by, send_email, send_count, last_sent_at, recent_sends,
  accepted_at, accepted_user_id, revoked_at, user_id, link_nonce, created_at, updated_at`;

interface InvitationRow {
  id: string;
  tenant_id: string;
  email: string;
  roles: string[];
  state: InvitationState;
  expires_at: Date | string;
  invited_by: string;
  send_email: boolean;
  send_count: number;
  last_sent_at: Date | string | null;
  recent_sends: (Date | string)[] | string;
  accepted_at: Date | string | null;
  accepted_user_id: string | null;
  revoked_at: Date | string | null;
  user_id: string | null;
  link_nonce: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const dateOrNull = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

/** A timestamptz[] arrives parsed or, from the pool without a parser for it, as its text form `{"…","…"}`. */
function dates(value: (Date | string)[] | string): Date[] {
  if (Array.isArray(value)) return value.map((v) => new Date(v));
  return value
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean)
    .map((v) => new Date(v.replace(/^"|"$/g, '')));
}

const rowToRecord = (r: InvitationRow): InvitationRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  email: r.email,
  roles: r.roles,
  state: r.state,
  expiresAt: new Date(r.expires_at),
  invitedBy: r.invited_by,
  sendEmail: r.send_email,
  sendCount: r.send_count,
  lastSentAt: dateOrNull(r.last_sent_at),
  recentSends: dates(r.recent_sends),
  acceptedAt: dateOrNull(r.accepted_at),
  acceptedUserId: r.accepted_user_id,
  revokedAt: dateOrNull(r.revoked_at),
  userId: r.user_id,
  linkNonce: r.link_nonce,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

async function invitationBy(sql: Sql, target: InvitationTarget, forUpdate: boolean): Promise<InvitationRecord | undefined> {
  const lock = forUpdate ? ' for update' : '';
  const query =
    target.by === 'id'
      ? { name: `invitation_by_id${lock ? '_locked' : ''}`, text: `select ${COLUMNS} from invitations where id = $1${lock}`, values: [target.id] }
      : {
          name: `invitation_pending_email${lock ? '_locked' : ''}`,
          text: `select ${COLUMNS} from invitations where tenant_id = $1 and email = $2 and state = 'pending'${lock}`,
          values: [target.tenantId, target.email],
        };
  const { rows: [row] } = await sql.query<InvitationRow>(query);
  return row && rowToRecord(row);
}

async function writeInvitation(sql: Sql, i: InvitationRecord): Promise<void> {
  await sql.query({
    name: 'invitation_put',
    text: `insert into invitations (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
           on conflict (id) do update set roles = excluded.roles, state = excluded.state, expires_at = excluded.expires_at,
             send_count = excluded.send_count, last_sent_at = excluded.last_sent_at, recent_sends = excluded.recent_sends,
             accepted_at = excluded.accepted_at, accepted_user_id = excluded.accepted_user_id, revoked_at = excluded.revoked_at,
             user_id = excluded.user_id, link_nonce = excluded.link_nonce, updated_at = excluded.updated_at`,
    values: [
      i.id, i.tenantId, i.email, i.roles, i.state, i.expiresAt, i.invitedBy, i.sendEmail, i.sendCount, i.lastSentAt, i.recentSends,
      i.acceptedAt, i.acceptedUserId, i.revokedAt, i.userId, i.linkNonce, i.createdAt, i.updatedAt,
    ],
  });
}

/** The tenant's member an invitation is about: by the invitation's user, else by its (or the target's) address. */
async function memberOfInvitation(sql: Sql, tenantId: string, invitation: InvitationRecord | undefined, target: InvitationTarget): Promise<MemberRecord | undefined> {
  if (invitation?.userId) return memberOf(sql, tenantId, invitation.userId);
  const email = invitation?.email ?? (target.by === 'email' ? target.email : undefined);
  return email ? memberWithEmail(sql, tenantId, email) : undefined;
}

/**
 * A send among the tenant's sends of the window; the tenant's sends that left the window are forgotten in the same
 * statement (one round trip more per send, not two, inside the invitation's transaction).
 */
async function recordSend(sql: Sql, tenantId: string, invitationId: string, at: Date, windowStart: Date): Promise<void> {
  await sql.query({
    name: 'invitation_send_record_forgetting',
    text: `with forgotten as (delete from invitation_sends where tenant_id = $1 and sent_at <= $4)
           insert into invitation_sends (tenant_id, invitation_id, sent_at) values ($1, $2, $3)`,
    values: [tenantId, invitationId, at, windowStart],
  });
}

/**
 * Invitations of tenants. A change runs in one transaction of the pool's: the tenant's members locked (the same lock
 * member changes take), the invitation read (locked), the facts (the tenant's pending invitations and sends of the
 * hour among them), the rule's writes, each send recorded, its audit events and hand-offs.
 */
export class PostgresInvitationRepository implements InvitationRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async find(id: string): Promise<InvitationRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return invitationBy(await nativePool(this.#orm), { by: 'id', id }, false);
  }

  /** Each invitation's JSON made by PostgreSQL (store/invitationJsonSql.ts): the listing passes it through. */
  async page(tenantId: string, filter: InvitationListFilter, after: InvitationListPosition | undefined, limit: number): Promise<ListedInvitation[] | undefined> {
    if (!isUuid(tenantId)) return undefined;
    const params: unknown[] = [tenantId];
    const param = (value: unknown) => `$${params.push(value)}`;
    const conditions = ['tenant_id = $1'];
    let shape = '';
    if (filter.state !== undefined) {
      conditions.push(`state = ${param(filter.state)}`);
      shape += '_state';
    }
    if (filter.email !== undefined) {
      conditions.push(`email = ${param(filter.email)}`);
      shape += '_email';
    }
    if (after) {
      conditions.push(`(created_at, id) < (${param(after.createdAt)}, ${param(after.id)}::uuid)`);
      shape += '_after';
    }
    const pool = await nativePool(this.#orm);
    const { rows } = await pool.query<{ id: string; created_ms: string; json: string }>({
      name: `invitation_page_json${shape}`,
      text: `select id, floor(extract(epoch from created_at) * 1000)::bigint as created_ms, ${INVITATION_JSON_SQL} as json
               from invitations where ${conditions.join(' and ')} order by created_at desc, id desc limit ${param(limit)}`,
      values: params,
    });
    if (rows.length === 0) {
      const { rows: [tenant] } = await pool.query<{ found: boolean }>({
        name: 'invitation_page_tenant',
        text: 'select exists (select 1 from tenants where id = $1) as found',
        values: [tenantId],
      });
      return tenant!.found ? [] : undefined;
    }
    return rows.map((row) => ({ id: row.id, createdAt: new Date(Number(row.created_ms)), json: row.json }));
  }

  async pendingExpiries(tenantId: string): Promise<{ id: string; expiresAt: Date }[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string; expires_at: Date | string }>({
      name: 'invitation_pending_expiries',
      text: `select id, expires_at from invitations where tenant_id = $1 and state = 'pending' order by expires_at, id`,
      values: [tenantId],
    });
    return rows.map((row) => ({ id: row.id, expiresAt: new Date(row.expires_at) }));
  }

  change<T>(
    target: InvitationTarget,
    meta: RequestMeta,
    namedRoles: string[],
    decide: (facts: InvitationChangeFacts, now: Date) => InvitationChange<T>,
  ): Promise<InvitationChangeWritten<T> | undefined> {
    if (target.by === 'id' ? !isUuid(target.id) : !isUuid(target.tenantId)) return Promise.resolve(undefined);
    return nativeTransaction(this.#orm, async (sql) => {
      // The tenant first (by id, the invitation's): the members' lock is taken before the invitation's row lock, the
      // order every member change takes it in.
      const tenantId = target.by === 'id' ? (await invitationBy(sql, target, false))?.tenantId : target.tenantId;
      if (!tenantId) return undefined;
      const { rows: [tenant] } = await sql.query<{ found: boolean }>({
        name: 'invitation_change_tenant',
        text: 'select exists (select 1 from tenants where id = $1) as found',
        values: [tenantId],
      });
      if (!tenant!.found) return undefined;
      await lockMembersOf(sql, tenantId);
      const invitation = await invitationBy(sql, target, true);
      const member = await memberOfInvitation(sql, tenantId, invitation, target);
      const knownRoles = await lockKnownRoles(sql, tenantId, [...new Set([...namedRoles, ...(invitation?.roles ?? [])])]);
      const now = new Date();
      const sendsSince = new Date(now.getTime() - INVITATION_SENDS_WINDOW_MS);
      // Counted under the members' lock, which every invitation change of the tenant takes: two cannot both see room.
      const { rows: [counted] } = await sql.query<{ pending: number; sent: number }>({
        name: 'invitations_of_tenant_counted',
        text: `select (select count(*) from invitations where tenant_id = $1 and state = 'pending')::int as pending,
                      (select count(*) from invitation_sends where tenant_id = $1 and sent_at > $2)::int as sent`,
        values: [tenantId, sendsSince],
      });
      const change = decide({ invitation, tenantId, member, knownRoles, pendingOfTenant: counted!.pending, sentInWindow: counted!.sent }, now);
      if (change.invitation) await writeInvitation(sql, change.invitation);
      let memberSync: InvitationChangeWritten<T>['memberSync'];
      if (change.member) {
        const changed = 'put' in change.member ? change.member.put : change.member.remove;
        if ('put' in change.member) await writeMember(sql, change.member.put, member?.userId === changed.userId ? member : undefined);
        else await sql.query({ name: 'member_delete', text: 'delete from members where tenant_id = $1 and user_id = $2', values: [tenantId, changed.userId] });
        memberSync = await enqueueActorCommand(sql, tenantId, { kind: 'syncMember', user_id: changed.userId });
      }
      for (const event of change.events ?? []) await appendAuditEvent(sql, event, meta);
      let send: InvitationChangeWritten<T>['send'];
      if (change.send && change.invitation) {
        send = await enqueueActorCommand(sql, tenantId, { kind: 'sendInvitation', invitation_id: change.invitation.id });
        await recordSend(sql, tenantId, change.invitation.id, now, sendsSince);
      }
      return { result: change.result, ...(send ? { send } : {}), ...(memberSync ? { memberSync } : {}) };
    });
  }
}
