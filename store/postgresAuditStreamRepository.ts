import type { AuditStreamFilter, AuditStreamRecord, AuditStreamRepository, DeliverableAuditStream } from '../domain/auditStreams/auditStreamRepository.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import type { SecretBox } from '../platform/secretBox.ts';

interface StreamRow {
  id: string;
  url: string;
  filter: AuditStreamFilter | string;
  start_after_id: string | number;
  delivered_through_id: string | number;
  created_at: Date | string;
  deleted_at: Date | string | null;
}

/** What the secret is sealed to: a stream's sealed secret opens only on its own row. */
const secretContext = (streamId: string) => `audit_stream:${streamId}`;

const toRecord = (row: StreamRow): AuditStreamRecord => ({
  id: row.id,
  url: row.url,
  filter: typeof row.filter === 'string' ? (JSON.parse(row.filter) as AuditStreamFilter) : row.filter,
  startAfterId: Number(row.start_after_id),
  deliveredThroughId: Number(row.delivered_through_id),
  createdAt: new Date(row.created_at),
  deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at),
});

/**
 * Stream secrets are stored sealed (`secret_encrypted`, platform/secretBox.ts) and opened only for the delivering
 * activity. A row written before sealing keeps its plaintext `secret` until `sealPlaintextSecrets` (run at the API's
 * start) seals it; meanwhile it is read as it is.
 */
export class PostgresAuditStreamRepository implements AuditStreamRepository {
  readonly #orm: Orm;
  readonly #secrets: SecretBox;

  constructor(orm: Orm, secrets: SecretBox) {
    this.#orm = orm;
    this.#secrets = secrets;
  }

  /**
   * The stream starts after the newest committed event: ids are drawn under the chain head's lock, held until commit,
   * so every event committed later has a higher id, and a cursor over ids never skips one that commits late.
   */
  create(stream: { id: string; url: string; secret: string; filter: AuditStreamFilter }, event: AuditAppend, meta: RequestMeta): Promise<AuditStreamRecord> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows: [row] } = await sql.query<StreamRow>({
        name: 'audit_stream_create',
        text: `insert into audit_streams (id, url, secret_encrypted, filter, start_after_id, delivered_through_id)
               select $1, $2, $3, $4::jsonb, h.last_id, h.last_id from audit_chain_head h
               returning id, url, filter, start_after_id, delivered_through_id, created_at, deleted_at`,
        values: [stream.id, stream.url, this.#secrets.seal(stream.secret, secretContext(stream.id)), JSON.stringify(stream.filter)],
      });
      await appendAuditEvent(sql, event, meta);
      return toRecord(row!);
    });
  }

  async listActive(): Promise<AuditStreamRecord[]> {
    const rows = await this.#orm.em.fork().execute<StreamRow[]>(
      `select id, url, filter, start_after_id, delivered_through_id, created_at, deleted_at
         from audit_streams where deleted_at is null order by created_at, id`,
    );
    return rows.map(toRecord);
  }

  markDeleted(id: string, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ id: string }>({
        name: 'audit_stream_delete',
        text: 'update audit_streams set deleted_at = now() where id = $1 and deleted_at is null returning id',
        values: [id],
      });
      if (rows.length === 0) return false;
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }

  async findDeliverable(id: string): Promise<DeliverableAuditStream | undefined> {
    const [row] = await this.#orm.em.fork().execute<(StreamRow & { secret: string | null; secret_encrypted: string | null })[]>(
      `select id, url, secret, secret_encrypted, filter, start_after_id, delivered_through_id, created_at, deleted_at from audit_streams where id = ?`,
      [id],
    );
    if (!row) return undefined;
    const secret = row.secret_encrypted === null ? row.secret! : this.#secrets.open(row.secret_encrypted, secretContext(row.id));
    return { ...toRecord(row), secret };
  }

  async sealPlaintextSecrets(): Promise<number> {
    const em = this.#orm.em.fork();
    const rows = await em.execute<{ id: string; secret: string }[]>('select id, secret from audit_streams where secret_encrypted is null');
    for (const row of rows) {
      await em.execute('update audit_streams set secret_encrypted = ?, secret = null where id = ? and secret_encrypted is null', [
        this.#secrets.seal(row.secret, secretContext(row.id)),
        row.id,
      ]);
    }
    return rows.length;
  }

  async recordProgress(id: string, deliveredThroughId: number, lastError: string | null): Promise<void> {
    await this.#orm.em.fork().execute(
      `update audit_streams set delivered_through_id = greatest(delivered_through_id, ?), last_error = ? where id = ?`,
      [deliveredThroughId, lastError?.slice(0, 1000) ?? null, id],
    );
  }
}
