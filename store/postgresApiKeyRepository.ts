import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKeyChange, ApiKeyRepository, LockedApiKey, VerifiableKey } from '../domain/apiKeys/apiKeyRepository.ts';
import type { ApiKeyRecord, NewApiKey } from '../domain/apiKeys/apiKeyRecord.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { conflict } from '../domain/errors.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import { nativePool } from './nativePool.ts';
import { ReadBatcher } from './readBatcher.ts';
import { listsByTenant } from './listsByTenant.ts';
import { isUuid } from './uuidShape.ts';
import type { Orm } from './orm.ts';

interface KeyRow {
  id: string;
  tenant_id: string;
  product: string | null;
  name: string;
  scopes: string[];
  prefix: string;
  created_by: string | null;
  /** The pool's rows carry Date, the ORM's `execute` text: both are read through toDate. */
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  expires_at: Date | string | null;
  rotated_from: string | null;
  created_at: Date | string;
}

const KEY_COLUMNS = 'id, tenant_id, product, name, scopes, prefix, created_by, last_used_at, revoked_at, expires_at, rotated_from, created_at';
const toDate = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));
const epochMs = (value: Date | string | null): number | null => toDate(value)?.getTime() ?? null;

const toRecord = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  tenantId: row.tenant_id,
  product: row.product,
  name: row.name,
  scopes: row.scopes,
  prefix: row.prefix,
  createdBy: row.created_by,
  lastUsedAt: toDate(row.last_used_at),
  revokedAt: toDate(row.revoked_at),
  expiresAt: toDate(row.expires_at),
  rotatedFrom: row.rotated_from,
  createdAt: toDate(row.created_at)!,
});

// Scopes travel as JSON text: the ORM's `execute` would spread an array parameter over several placeholders.
const insertValues = (key: NewApiKey) => [
  key.id, key.tenantId, key.product, key.name, JSON.stringify(key.scopes), key.prefix, key.keyHash, key.createdBy, key.expiresAt, key.rotatedFrom, key.createdAt,
];
const SCOPES_FROM_JSON = 'array(select jsonb_array_elements_text(?::jsonb))';
const INSERT_KEY = `insert into api_keys (id, tenant_id, product, name, scopes, prefix, key_hash, created_by, expires_at, rotated_from, created_at)`;

/** Ids per last_used_at statement: one array parameter, well inside PostgreSQL's limits. */
const IDS_PER_STATEMENT = 5_000;

/**
 * Every statement of the API keys aggregate. The hot paths (verify's lookup, listing, last_used_at marks) are single
 * named statements on the pool under the ORM; writes that must land together run in one ORM transaction.
 */
export class PostgresApiKeyRepository implements ApiKeyRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** One statement for the tenants asked for together (store/readBatcher.ts); its existence comes with its keys. */
  listOfTenant(tenantId: string): Promise<ApiKeyRecord[] | undefined> {
    return this.#ofTenants.load(tenantId);
  }

  readonly #ofTenants = new ReadBatcher<string, ApiKeyRecord[]>(async (tenantIds) => {
    const { rows } = await (await nativePool(this.#orm)).query<{ tenant: string } & ({ [K in keyof KeyRow]: KeyRow[K] | null })>({
      name: 'api_keys_of_tenants',
      text: `select t.id as tenant, ${KEY_COLUMNS.split(', ').map((column) => `k.${column}`).join(', ')}
               from tenants t left join api_keys k on k.tenant_id = t.id
              where t.id = any($1::uuid[]) order by t.id, k.created_at desc, k.id`,
      values: [tenantIds],
    });
    return listsByTenant(rows, (row) => row.tenant, (row) => (row.id === null ? undefined : toRecord(row as KeyRow)));
  }, { isKey: isUuid });

  insert(key: NewApiKey, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return this.#orm.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<{ id: string }[]>(
        `${INSERT_KEY} select ?, ?, ?, ?, ${SCOPES_FROM_JSON}, ?, ?, ?, ?, ?, ? where exists (select 1 from tenants where id = ?) returning id`,
        [...insertValues(key), key.tenantId],
      );
      if (rows.length === 0) return false;
      await appendAuditEvent(tx, event, meta);
      return true;
    });
  }

  async change<T>(id: string, meta: RequestMeta, decide: (key: LockedApiKey, now: Date) => ApiKeyChange<T>): Promise<T | undefined> {
    try {
      return await this.#orm.em.fork().transactional(async (tx) => {
        const locked = await lockKey(tx, id);
        if (!locked) return undefined;
        const change = decide(locked, new Date());
        if (change.revokedAt || change.expiresAt) {
          await tx.execute(`update api_keys set revoked_at = coalesce(?, revoked_at), expires_at = coalesce(?, expires_at) where id = ?`, [
            change.revokedAt ?? null,
            change.expiresAt ?? null,
            id,
          ]);
        }
        if (change.successor) await tx.execute(`${INSERT_KEY} values (?, ?, ?, ?, ${SCOPES_FROM_JSON}, ?, ?, ?, ?, ?, ?)`, insertValues(change.successor));
        if (change.event) await appendAuditEvent(tx, change.event, meta);
        return change.result;
      });
    } catch (error) {
      // Two rotations of one key racing: the one-successor index lets the first through.
      if ((error as { code?: string }).code === '23505' && String((error as Error).message).includes('api_keys_rotated_from_unique')) {
        throw conflict('the API key was already rotated');
      }
      throw error;
    }
  }

  async findVerifiable(prefix: string): Promise<{ key: VerifiableKey; tenantStatus: string } | undefined> {
    const { rows } = await (await nativePool(this.#orm)).query<{
      id: string;
      tenant_id: string;
      product: string | null;
      scopes: string[];
      key_hash: Buffer;
      revoked_at: Date | string | null;
      expires_at: Date | string | null;
      last_used_at: Date | string | null;
      tenant_status: string;
    }>({
      name: 'api_key_by_prefix',
      text: `select k.id, k.tenant_id, k.product, k.scopes, k.key_hash, k.revoked_at, k.expires_at, k.last_used_at, t.status as tenant_status
               from api_keys k join tenants t on t.id = k.tenant_id where k.prefix = $1`,
      values: [prefix],
    });
    const row = rows[0];
    if (!row) return undefined;
    return {
      key: {
        id: row.id,
        tenantId: row.tenant_id,
        product: row.product,
        scopes: row.scopes,
        keyHash: row.key_hash,
        revoked: row.revoked_at !== null,
        expiresAt: epochMs(row.expires_at),
        lastUsedAt: epochMs(row.last_used_at) ?? 0,
      },
      tenantStatus: row.tenant_status,
    };
  }

  async markUsed(ids: string[], resolutionSeconds: number): Promise<void> {
    const sql = await nativePool(this.#orm);
    for (let at = 0; at < ids.length; at += IDS_PER_STATEMENT) {
      await sql.query({
        name: 'api_keys_last_used',
        text: `update api_keys set last_used_at = now()
                where id = any($1::uuid[]) and (last_used_at is null or last_used_at < now() - make_interval(secs => $2))`,
        values: [ids.slice(at, at + IDS_PER_STATEMENT), resolutionSeconds],
      });
    }
  }
}

/**
 * The key under a row lock, then its successor in a statement of its own: under READ COMMITTED that statement sees a
 * rotation that committed while this transaction waited for the lock, which a subquery of the locking read would not.
 */
async function lockKey(tx: EntityManager, id: string): Promise<LockedApiKey | undefined> {
  const rows = await tx.execute<KeyRow[]>(`select ${KEY_COLUMNS} from api_keys where id = ? for update`, [id]);
  if (!rows[0]) return undefined;
  const successors = await tx.execute<{ id: string }[]>(`select id from api_keys where rotated_from = ?`, [id]);
  return { ...toRecord(rows[0]), successorId: successors[0]?.id ?? null };
}
