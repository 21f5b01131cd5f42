import type { AuditAppend } from '../domain/schemas/audit.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type {
  DeliverableWebhookEndpoint,
  WebhookEndpointFields,
  WebhookEndpointRecord,
  WebhookEndpointRepository,
  WebhookEndpointState,
} from '../domain/webhooks/webhookEndpointRepository.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import type { Sql } from './sql.ts';

interface EndpointRow {
  id: string;
  url: string;
  types: string[];
  tenant_id: string | null;
  state: WebhookEndpointState;
  last_delivered_sequence: string | number;
  replay_generation: number;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

const COLUMNS = 'id, url, types, tenant_id, state, last_delivered_sequence, replay_generation, created_at, deleted_at';

/** What a secret is sealed to: an endpoint's sealed secrets open only on its own row. */
const secretContext = (endpointId: string) => `webhook_endpoint:${endpointId}`;

const toRecord = (row: EndpointRow): WebhookEndpointRecord => ({
  id: row.id,
  url: row.url,
  types: row.types,
  tenantId: row.tenant_id,
  state: row.state,
  lastDeliveredSequence: Number(row.last_delivered_sequence),
  replayGeneration: Number(row.replay_generation),
  createdAt: new Date(row.created_at),
  deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
});

/** The state a change leaves: re-enabling makes a disabled endpoint active; a failing one stays failing until a delivery. */
function stateAfter(before: WebhookEndpointState, requested: WebhookEndpointFields['state']): WebhookEndpointState {
  if (requested === 'disabled') return 'disabled';
  if (requested === 'active' && before === 'disabled') return 'active';
  return before;
}

/**
 * Webhook endpoints, their sealed secrets (platform/secretBox.ts) and where each one's delivery stands. Every change
 * and its audit event commit together. Delivery's cursor is an event id: ids are drawn under the chain head's lock,
 * held until commit, so an event committed later always has a higher id and a cursor never skips one.
 */
export class PostgresWebhookEndpointRepository implements WebhookEndpointRepository {
  readonly #orm: Orm;
  readonly #secrets: SecretBox;

  constructor(orm: Orm, secrets: SecretBox) {
    this.#orm = orm;
    this.#secrets = secrets;
  }

  #sql(): Promise<Sql> {
    return nativePool(this.#orm);
  }

  create(endpoint: { id: string; url: string; types: string[]; tenantId: string | null; secret: string }, event: AuditAppend, meta: RequestMeta): Promise<WebhookEndpointRecord> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<EndpointRow>({
        name: 'webhook_endpoint_create',
        text: `insert into webhook_endpoints (id, url, types, tenant_id, secret_encrypted, last_delivered_sequence)
               select $1::uuid, $2, $3::text[], $4::uuid, $5, h.last_id from audit_chain_head h
               returning ${COLUMNS}`,
        values: [endpoint.id, endpoint.url, endpoint.types, endpoint.tenantId, this.#secrets.seal(endpoint.secret, secretContext(endpoint.id))],
      });
      await appendAuditEvent(sql, event, meta);
      return toRecord(row!);
    });
  }

  async list(): Promise<WebhookEndpointRecord[]> {
    const { rows } = await (await this.#sql()).query<EndpointRow>({
      name: 'webhook_endpoint_list',
      text: `select ${COLUMNS} from webhook_endpoints where deleted_at is null order by created_at, id`,
      values: [],
    });
    return rows.map(toRecord);
  }

  async find(id: string): Promise<WebhookEndpointRecord | undefined> {
    const { rows: [row] } = await (await this.#sql()).query<EndpointRow>({
      name: 'webhook_endpoint_find',
      text: `select ${COLUMNS} from webhook_endpoints where id = $1 and deleted_at is null`,
      values: [id],
    });
    return row && toRecord(row);
  }

  change(
    id: string,
    fields: WebhookEndpointFields,
    eventOf: (before: WebhookEndpointRecord, after: WebhookEndpointRecord) => AuditAppend,
    meta: RequestMeta,
  ): Promise<WebhookEndpointRecord | undefined> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [locked] } = await sql.query<EndpointRow>({
        name: 'webhook_endpoint_lock',
        text: `select ${COLUMNS} from webhook_endpoints where id = $1 and deleted_at is null for update`,
        values: [id],
      });
      if (!locked) return undefined;
      const before = toRecord(locked);
      const after: WebhookEndpointRecord = { ...before, url: fields.url ?? before.url, types: fields.types ?? before.types, state: stateAfter(before.state, fields.state) };
      if (after.url === before.url && after.types.join('\n') === before.types.join('\n') && after.state === before.state) return before;
      await sql.query({
        name: 'webhook_endpoint_change',
        text: `update webhook_endpoints set url = $2, types = $3::text[], state = $4,
                      last_error = case when $4 = 'active' and state = 'disabled' then null else last_error end
                where id = $1`,
        values: [id, after.url, after.types, after.state],
      });
      await appendAuditEvent(sql, eventOf(before, after), meta);
      return after;
    });
  }

  markDeleted(id: string, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ id: string }>({
        name: 'webhook_endpoint_delete',
        text: 'update webhook_endpoints set deleted_at = now() where id = $1 and deleted_at is null returning id',
        values: [id],
      });
      if (rows.length === 0) return false;
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }

  rotateSecret(id: string, secret: string, overlapSeconds: number, event: AuditAppend, meta: RequestMeta): Promise<{ endpoint: WebhookEndpointRecord; previousSecretUntil: Date } | undefined> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<EndpointRow & { previous_secret_until: Date | string }>({
        name: 'webhook_endpoint_rotate',
        text: `update webhook_endpoints
                  set previous_secret_encrypted = secret_encrypted, previous_secret_until = now() + make_interval(secs => $3),
                      secret_encrypted = $2
                where id = $1 and deleted_at is null
            returning ${COLUMNS}, previous_secret_until`,
        values: [id, this.#secrets.seal(secret, secretContext(id)), overlapSeconds],
      });
      if (!row) return undefined;
      await appendAuditEvent(sql, event, meta);
      return { endpoint: toRecord(row), previousSecretUntil: new Date(row.previous_secret_until) };
    });
  }

  requestReplay(id: string, afterSequence: number, event: AuditAppend, meta: RequestMeta): Promise<WebhookEndpointRecord | undefined> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<EndpointRow>({
        name: 'webhook_endpoint_replay',
        text: `update webhook_endpoints set replay_generation = replay_generation + 1, last_delivered_sequence = $2
                where id = $1 and deleted_at is null
            returning ${COLUMNS}`,
        values: [id, afterSequence],
      });
      if (!row) return undefined;
      await appendAuditEvent(sql, event, meta);
      return toRecord(row);
    });
  }

  async findDeliverable(id: string): Promise<DeliverableWebhookEndpoint | undefined> {
    const { rows: [row] } = await (await this.#sql()).query<EndpointRow & { secret_encrypted: string; previous_secret_encrypted: string | null }>({
      name: 'webhook_endpoint_deliverable',
      text: `select ${COLUMNS}, secret_encrypted,
                    case when previous_secret_until > now() then previous_secret_encrypted end as previous_secret_encrypted
               from webhook_endpoints where id = $1`,
      values: [id],
    });
    if (!row) return undefined;
    const sealed = [row.secret_encrypted, ...(row.previous_secret_encrypted === null ? [] : [row.previous_secret_encrypted])];
    return { ...toRecord(row), signingSecrets: sealed.map((value) => this.#secrets.open(value, secretContext(row.id))) };
  }

  async recordProgress(id: string, replayGeneration: number, sequence: number, failure: string | null): Promise<void> {
    await (await this.#sql()).query({
      name: 'webhook_endpoint_progress',
      text: `update webhook_endpoints
                set last_delivered_sequence = $3, last_error = $4::text,
                    state = case when state = 'disabled' then state when $4::text is null then 'active' else 'failing' end
              where id = $1 and replay_generation = $2 and deleted_at is null`,
      values: [id, replayGeneration, sequence, failure?.slice(0, 1000) ?? null],
    });
  }

  disable(id: string, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ id: string }>({
        name: 'webhook_endpoint_disable',
        text: `update webhook_endpoints set state = 'disabled' where id = $1 and state <> 'disabled' and deleted_at is null returning id`,
        values: [id],
      });
      if (rows.length === 0) return false;
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }
}
