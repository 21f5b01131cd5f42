import type { StoredTenantSettings } from '../domain/tenants/tenantSettings.ts';
import { AUDIT_INSERT_COLUMNS, auditInsertValues } from './auditEventInsert.ts';
import type { TenantLookup } from '../domain/claims/claimsLookup.ts';
import type { TenantProductRecord } from '../domain/entitlements/tenantProductRecord.ts';
import type { CachedTenant } from '../domain/reads/tenantCache.ts';
import type { TenantDocument } from '../domain/reads/documentCache.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import type { TenantRecord } from '../domain/tenants/tenantRecord.ts';
import type { LockedTenant, TenantChange, TenantChangeWritten, TenantListFilter, TenantListPosition, TenantRepository } from '../domain/tenants/tenantRepository.ts';
import type { QueuedActorCommand } from '../domain/changeEffects/changeEffects.ts';
import type { OutboxCommand } from '../domain/tenantActor/tenantActorCommand.ts';
import { nativePool } from './nativePool.ts';
import type { Sql } from './sql.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { TENANT_PRODUCT_COLUMNS, tenantChangeWrite } from './tenantChangeWrite.ts';
import { HAND_OFF_DUE_SQL } from './postgresActorOutbox.ts';
import { loadTenantSnapshotsBy } from './tenantSnapshotQuery.ts';
import { ReadBatcher } from './readBatcher.ts';
import { listsByTenant } from './listsByTenant.ts';
import { isUuid } from './uuidShape.ts';
import { TENANT_JSON_SQL } from './tenantJsonSql.ts';
import { textAbovePrefix } from './textAbovePrefix.ts';

const TENANT_COLUMNS = `id, slug, name, status, kind, plan, erp_customer_id, payment_cust_id, trial_ends_at, trial_reminded_for,
  to_char(contract_start, 'YYYY-MM-DD') as contract_start, to_char(contract_end, 'YYYY-MM-DD') as contract_end,
  sales_owner, admin_email, admin_name, settings, created_at, updated_at`;

/** A tenant for a change: its columns, its row's version and its entitlements (a JSON array), in one read. */
const TENANT_WITH_ENTITLEMENTS = `select ${TENANT_COLUMNS}, t.xmin::text as version,
    coalesce((select json_agg(json_build_object(${TENANT_PRODUCT_COLUMNS.split(', ').map((column) => `'${column}', p.${column}`).join(', ')}) order by p.product)
                from tenant_products p where p.tenant_id = t.id), '[]') as entitlements
  from tenants t where t.id = $1`;

interface TenantRow {
  id: string;
  slug: string;
  name: string;
  status: TenantRecord['status'];
  kind: TenantRecord['kind'];
  plan: string;
  erp_customer_id: string | null;
  payment_cust_id: string | null;
  /** Timestamps may arrive as text from the pool: read them through `new Date()`. */
  trial_ends_at: Date | string | null;
  trial_reminded_for: Date | string | null;
  contract_start: string | null;
  contract_end: string | null;
  sales_owner: string | null;
  admin_email: string | null;
  admin_name: string | null;
  settings: StoredTenantSettings | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const tenantRowToRecord = (r: TenantRow): TenantRecord => ({
  id: r.id,
  slug: r.slug,
  name: r.name,
  status: r.status,
  kind: r.kind,
  plan: r.plan,
  erpCustomerId: r.erp_customer_id,
  paymentCustId: r.payment_cust_id,
  trialEndsAt: r.trial_ends_at === null ? null : new Date(r.trial_ends_at),
  trialRemindedFor: r.trial_reminded_for === null ? null : new Date(r.trial_reminded_for),
  contractStart: r.contract_start,
  contractEnd: r.contract_end,
  salesOwner: r.sales_owner,
  adminEmail: r.admin_email,
  adminName: r.admin_name,
  settings: r.settings ?? {},
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/**
 * A UTC timestamp as PostgreSQL writes it ('2026-11-23 23:35:03.5501', the fraction cut after its last non-zero digit
 * or left out) in ISO 8601 to the microsecond, as the listing's cursor carries it. Formatted here rather than with
 * to_char in the statement: to_char was most of what a page of the listing cost PostgreSQL.
 */
export function isoWithMicroseconds(utc: string): string {
  const [date, time] = utc.split(' ') as [string, string];
  const [seconds, fraction = ''] = time.split('.') as [string, string?];
  return `${date}T${seconds}.${fraction.padEnd(6, '0')}Z`;
}

interface TenantProductRow {
  tenant_id: string;
  product: string;
  enabled: boolean;
  config: Record<string, unknown>;
  expires_at: Date | string | null;
  expiry_announced_for: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const tenantProductRowToRecord = (r: TenantProductRow): TenantProductRecord => ({
  tenantId: r.tenant_id,
  product: r.product,
  enabled: r.enabled,
  config: r.config,
  expiresAt: r.expires_at === null ? null : new Date(r.expires_at),
  expiryAnnouncedFor: r.expiry_announced_for === null ? null : new Date(r.expiry_announced_for),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const INSERT_TENANT_WITH_EVENT_AND_HAND_OFF = `
  with tenant as (
    insert into tenants (id, slug, name, status, kind, plan, trial_ends_at, sales_owner, admin_email, admin_name, created_at, updated_at)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
  ), event as (
    insert into audit_events (${AUDIT_INSERT_COLUMNS})
    values ($12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
  ), hand_off as (
    insert into tenant_actor_outbox (tenant_id, payload, next_attempt_at)
    values ($1, $26::jsonb, ${HAND_OFF_DUE_SQL})
    returning id
  )
  select (select id from hand_off) as command_id`;

/** Every statement of the tenant aggregate: tenants, their entitlements and the hand-offs to their actors. */
export class PostgresTenantRepository implements TenantRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** The same columns and row mapping as the listing; the requests that arrive together share one statement. */
  find(lookup: TenantLookup): Promise<TenantRecord | undefined> {
    return lookup.by === 'slug' ? this.#bySlug.load(lookup.slug) : this.#byId.load(lookup.id);
  }

  readonly #byId = this.#readsBy<TenantRecord>('id', async (sql, keys) => {
    const { rows } = await sql.query<TenantRow>({ name: 'tenants_by_ids', text: `select ${TENANT_COLUMNS} from tenants where id = any($1::uuid[])`, values: [keys] });
    return rows.map(tenantRowToRecord);
  });
  readonly #bySlug = this.#readsBy<TenantRecord>('slug', async (sql, keys) => {
    const { rows } = await sql.query<TenantRow>({ name: 'tenants_by_slugs', text: `select ${TENANT_COLUMNS} from tenants where slug = any($1::text[])`, values: [keys] });
    return rows.map(tenantRowToRecord);
  });

  /**
   * Claims' and verify's read of a tenant the cache lacks; the tenants asked for together share one statement, as
   * verify's keys do (PostgresApiKeyRepository.findVerifiable).
   */
  snapshot(lookup: TenantLookup): Promise<CachedTenant | undefined> {
    return lookup.by === 'slug' ? this.#snapshotsBySlug.load(lookup.slug) : this.#snapshotsById.load(lookup.id);
  }

  readonly #snapshotsById = this.#readsBy<CachedTenant>('id', (sql, keys) => loadTenantSnapshotsBy(sql, 'id', keys));
  readonly #snapshotsBySlug = this.#readsBy<CachedTenant>('slug', (sql, keys) => loadTenantSnapshotsBy(sql, 'slug', keys));

  /** Reads of tenants by id or by slug, those of one turn in one statement; a key that is no UUID never asks for an id. */
  #readsBy<T extends { id: string; slug: string }>(column: 'id' | 'slug', read: (sql: Sql, keys: string[]) => Promise<T[]>): ReadBatcher<string, T> {
    return new ReadBatcher(
      async (keys) => new Map((await read(await nativePool(this.#orm), keys)).map((tenant) => [tenant[column], tenant])),
      { isKey: column === 'id' ? isUuid : undefined },
    );
  }

  async snapshots(ids: string[]): Promise<CachedTenant[]> {
    return ids.length === 0 ? [] : loadTenantSnapshotsBy(await nativePool(this.#orm), 'id', ids);
  }

  async page(filter: TenantListFilter, after: TenantListPosition | undefined, limit: number): Promise<TenantListPosition[]> {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const conditions: string[] = [];
    let shape = '';
    for (const [column, value] of [['status', filter.status], ['kind', filter.kind], ['plan', filter.plan]] as const) {
      if (value === undefined) continue;
      conditions.push(`${column} = ${param(value)}`);
      shape += `_${column}`;
    }
    if (filter.ids !== undefined) {
      conditions.push(`id = any(${param(filter.ids.filter(isUuid))}::uuid[])`);
      shape += '_ids';
    }
    if (filter.prefix !== undefined) {
      // LIKE's own wildcards in the caller's text are literal characters.
      const pattern = param(`${filter.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      const above = textAbovePrefix(filter.prefix);
      if (above === undefined) {
        conditions.push(`(lower(slug) like ${pattern} or lower(name) like ${pattern})`);
        shape += '_prefix';
      } else {
        // A LIKE with a parameter is opaque to the prepared statement's generic plan, which then walked the listing
        // index filtering every tenant. The same prefix as a byte-wise range is what the text_pattern_ops indexes on
        // lower(slug) and lower(name) serve; the LIKE stays as the exact condition.
        const [low, high] = [param(filter.prefix), param(above)];
        conditions.push(
          `((lower(slug) ~>=~ ${low} and lower(slug) ~<~ ${high} and lower(slug) like ${pattern})
             or (lower(name) ~>=~ ${low} and lower(name) ~<~ ${high} and lower(name) like ${pattern}))`,
        );
        shape += '_prefix_range';
      }
    }
    if (after) {
      conditions.push(`(created_at, id) < (${param(after.createdAt)}::timestamptz, ${param(after.id)}::uuid)`);
      shape += '_after';
    }
    const where = conditions.length ? `where ${conditions.join(' and ')}` : '';
    // Ids and positions alone: the listing index answers them without the table (index-only) where the filter lets it.
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string; position: string }>({
      name: `tenant_page_ids${shape}`,
      text: `select id, (created_at at time zone 'UTC')::text as position
               from tenants ${where} order by created_at desc, id desc limit ${param(limit)}`,
      values: params,
    });
    return rows.map((row) => ({ id: row.id, createdAt: isoWithMicroseconds(row.position) }));
  }

  /** The tenants asked for together, each as its Tenant JSON made by PostgreSQL (store/tenantJsonSql.ts). */
  documents(ids: string[]): Promise<TenantDocument[]> {
    return Promise.all(ids.map((id) => this.#documents.load(id))).then((found) => found.filter((document) => document !== undefined));
  }

  readonly #documents = new ReadBatcher<string, TenantDocument>(
    async (ids) => {
      const { rows } = await (await nativePool(this.#orm)).query<TenantDocument>({
        name: 'tenant_documents',
        text: `select id, slug, ${TENANT_JSON_SQL} as json from tenants where id = any($1::uuid[])`,
        values: [ids],
      });
      return new Map(rows.map((row) => [row.id, row]));
    },
    { isKey: isUuid },
  );

  /** Undefined when there is no such tenant: its existence and its entitlements come from one statement. */
  entitlementsOf(tenantId: string): Promise<TenantProductRecord[] | undefined> {
    return this.#entitlements.load(tenantId);
  }

  /** A named statement on the pool (rows, not hydrated entities), one for the tenants asked for together. */
  readonly #entitlements = new ReadBatcher<string, TenantProductRecord[]>(async (ids) => {
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string } & ({ [K in keyof TenantProductRow]: TenantProductRow[K] | null })>({
      name: 'entitlements_of_tenants',
      text: `select t.id, ${TENANT_PRODUCT_COLUMNS.split(', ').map((column) => `p.${column}`).join(', ')}
               from tenants t left join tenant_products p on p.tenant_id = t.id
              where t.id = any($1::uuid[]) order by t.id, p.product`,
      values: [ids],
    });
    return listsByTenant(rows, (row) => row.id, (row) => (row.tenant_id === null ? undefined : tenantProductRowToRecord(row as TenantProductRow)));
  }, { isKey: isUuid });

  /**
   * Tenant, `tenant.created` and the hand-off to its actor as one statement: one round trip and one commit, so once
   * committed neither the tenant nor its provisioning can be lost, and a failure anywhere leaves none of the three.
   */
  async create(tenant: TenantRecord, event: AuditAppend, meta: RequestMeta, handOff: OutboxCommand): Promise<{ handOff: QueuedActorCommand } | 'slug_taken'> {
    try {
      const { rows } = await (await nativePool(this.#orm)).query<{ command_id: string | null }>({
        name: 'create_tenant',
        text: INSERT_TENANT_WITH_EVENT_AND_HAND_OFF,
        values: [
          tenant.id, tenant.slug, tenant.name, tenant.status, tenant.kind, tenant.plan, tenant.trialEndsAt, tenant.salesOwner,
          tenant.adminEmail, tenant.adminName, tenant.createdAt, ...auditInsertValues(event, meta), JSON.stringify(handOff),
        ],
      });
      return { handOff: { id: Number(rows[0]!.command_id), tenantId: tenant.id, command: handOff } };
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'slug_taken';
      throw error;
    }
  }

  /**
   * Two statements, each its own transaction: the tenant with its entitlements and its row's version, then the
   * decided change in one write guarded by that version (store/tenantChangeWrite.ts), so each audit event records
   * the before-state its change was decided on. A change that lost the race to another is decided again under the
   * row's lock, in a transaction, where it cannot lose. Round trips were most of the API's CPU a change.
   */
  async change<T>(id: string, meta: RequestMeta, decide: (tenant: LockedTenant, now: Date) => TenantChange<T>): Promise<TenantChangeWritten<T> | undefined> {
    const unlocked = await this.#decideAndWrite(await nativePool(this.#orm), id, meta, decide, '');
    if (unlocked !== 'lost') return unlocked;
    const locked = await nativeTransaction(this.#orm, (sql) => this.#decideAndWrite(sql, id, meta, decide, ' for update of t'));
    if (locked === 'lost') throw new Error(`tenant ${id} changed under its row lock`);
    return locked;
  }

  async #decideAndWrite<T>(
    sql: Sql,
    id: string,
    meta: RequestMeta,
    decide: (tenant: LockedTenant, now: Date) => TenantChange<T>,
    lock: '' | ' for update of t',
  ): Promise<TenantChangeWritten<T> | undefined | 'lost'> {
    const { rows: [row] } = await sql.query<TenantRow & { version: string; entitlements: TenantProductRow[] | string }>({
      name: `tenant_for_change${lock ? '_locked' : ''}`,
      text: `${TENANT_WITH_ENTITLEMENTS}${lock}`,
      values: [id],
    });
    if (!row) return undefined;
    const entitlements = typeof row.entitlements === 'string' ? (JSON.parse(row.entitlements) as TenantProductRow[]) : row.entitlements;
    const change = decide({ ...tenantRowToRecord(row), entitlements: entitlements.map(tenantProductRowToRecord) }, new Date());
    const handOff = change.pushClaims ? ({ kind: 'pushClaims' } as const) : undefined;
    const writes = change.update !== undefined || (change.putEntitlements?.length ?? 0) > 0 || change.removeEntitlement !== undefined || (change.events?.length ?? 0) > 0;
    if (!writes && handOff === undefined) return { result: change.result, claimsChanged: false, handOffs: [] };
    const { rows: [written] } = await sql.query<{ written: number; command_id: string | null }>(tenantChangeWrite(id, row.version, change, handOff, meta));
    if (written!.written === 0) return 'lost';
    if (handOff === undefined) return { result: change.result, claimsChanged: false, handOffs: [] };
    return { result: change.result, claimsChanged: true, handOffs: [{ id: Number(written!.command_id), tenantId: id, command: handOff }] };
  }
}
