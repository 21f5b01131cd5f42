import type { ApiKeyChange, ApiKeyRepository, LockedApiKey, VerifiableKey } from '../domain/apiKeys/apiKeyRepository.ts';
import type { ApiKeyRecord, NewApiKey } from '../domain/apiKeys/apiKeyRecord.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { conflict } from '../domain/errors.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Sql } from './sql.ts';
import { ReadBatcher } from './readBatcher.ts';
import { listsByTenant } from './listsByTenant.ts';
import { API_KEY_JSON_SQL } from './apiKeyJsonSql.ts';
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
  /** Timestamps may arrive as Date or as text: both are read through toDate. */
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

const keyValues = (key: NewApiKey) => [
  key.id, key.tenantId, key.product, key.name, key.scopes, key.prefix, key.keyHash, key.createdBy, key.expiresAt, key.rotatedFrom, key.createdAt,
];
const INSERT_KEY = `insert into api_keys (id, tenant_id, product, name, scopes, prefix, key_hash, created_by, expires_at, rotated_from, created_at)`;
const KEY_PARAMS = '$1, $2, $3, $4, $5::text[], $6, $7, $8, $9, $10, $11';

/** Ids per last_used_at statement: one array parameter, well inside PostgreSQL's limits. */
const IDS_PER_STATEMENT = 5_000;

/**
 * Every statement of the API keys aggregate. The hot paths (verify's lookup, listing, last_used_at marks) are single
 * named statements on the pool under the ORM; writes that must land together run in one transaction on it.
 */
export class PostgresApiKeyRepository implements ApiKeyRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** One statement for the tenants asked for together (store/readBatcher.ts); its existence comes with its keys. */
  listOfTenant(tenantId: string): Promise<string[] | undefined> {
    return this.#ofTenants.load(tenantId);
  }

  /** Each key's JSON made by PostgreSQL (store/apiKeyJsonSql.ts): the listing passes it through. */
  readonly #ofTenants = new ReadBatcher<string, string[]>(async (tenantIds) => {
    const { rows } = await (await nativePool(this.#orm)).query<{ tenant: string; json: string | null }>({
      name: 'api_keys_of_tenants_json',
      text: `select t.id as tenant, ${API_KEY_JSON_SQL} as json
               from tenants t left join api_keys k on k.tenant_id = t.id
              where t.id = any($1::uuid[]) order by t.id, k.created_at desc, k.id`,
      values: [tenantIds],
    });
    return listsByTenant(rows, (row) => row.tenant, (row) => row.json ?? undefined);
  }, { isKey: isUuid });

  insert(key: NewApiKey, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query<{ id: string }>({
        name: 'api_key_insert',
        text: `${INSERT_KEY} select ${KEY_PARAMS} where exists (select 1 from tenants where id = $2) returning id`,
        values: keyValues(key),
      });
      if (rows.length === 0) return false;
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }

  async change<T>(id: string, meta: RequestMeta, decide: (key: LockedApiKey, now: Date) => ApiKeyChange<T>): Promise<T | undefined> {
    try {
      return await nativeTransaction(this.#orm, async (sql) => {
        const locked = await lockKey(sql, id);
        if (!locked) return undefined;
        const change = decide(locked, new Date());
        if (change.revokedAt || change.expiresAt) {
          await sql.query({
            name: 'api_key_ends',
            text: 'update api_keys set revoked_at = coalesce($1, revoked_at), expires_at = coalesce($2, expires_at) where id = $3',
            values: [change.revokedAt ?? null, change.expiresAt ?? null, id],
          });
        }
        if (change.successor) await sql.query({ name: 'api_key_successor', text: `${INSERT_KEY} values (${KEY_PARAMS})`, values: keyValues(change.successor) });
        if (change.event) await appendAuditEvent(sql, change.event, meta);
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

  /**
   * Verify's read of a key the cache lacks, with its tenant's status; the prefixes asked for together share one
   * statement (store/readBatcher.ts). Keys loaded together (a replica's start, a deploy) expire together too, and
   * each then cost a round trip of its own: the wave of misses cut a verify row's throughput (docs/performance.md).
   */
  findVerifiable(prefix: string): Promise<{ key: VerifiableKey; tenantStatus: string } | undefined> {
    return this.#verifiable.load(prefix);
  }

  readonly #verifiable = new ReadBatcher<string, { key: VerifiableKey; tenantStatus: string }>(async (prefixes) => {
    const { rows } = await (await nativePool(this.#orm)).query<{
      id: string;
      tenant_id: string;
      product: string | null;
      scopes: string[];
      prefix: string;
      key_hash: Buffer;
      revoked_at: Date | string | null;
      expires_at: Date | string | null;
      last_used_at: Date | string | null;
      tenant_status: string;
    }>({
      name: 'api_keys_by_prefixes',
      text: `select k.id, k.tenant_id, k.product, k.scopes, k.prefix, k.key_hash, k.revoked_at, k.expires_at, k.last_used_at, t.status as tenant_status
               from api_keys k join tenants t on t.id = k.tenant_id where k.prefix = any($1::text[])`,
      values: [prefixes],
    });
    return new Map(
      rows.map((row) => [
        row.prefix,
        {
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
        },
      ]),
    );
  });

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
async function lockKey(sql: Sql, id: string): Promise<LockedApiKey | undefined> {
  const { rows: [row] } = await sql.query<KeyRow>({ name: 'api_key_for_change', text: `select ${KEY_COLUMNS} from api_keys where id = $1 for update`, values: [id] });
  if (!row) return undefined;
  const { rows: [successor] } = await sql.query<{ id: string }>({ name: 'api_key_successor_of', text: 'select id from api_keys where rotated_from = $1', values: [id] });
  return { ...toRecord(row), successorId: successor?.id ?? null };
}
