import type { DomainRecord, DomainState } from '../domain/domains/domainRecord.ts';
import type { DomainChange, DomainChangeFacts, DomainChangeWritten, DomainRepository, DomainTarget } from '../domain/domains/domainRepository.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import type { Sql } from './sql.ts';
import { isUuid } from './uuidShape.ts';

const COLUMNS = 'id, tenant_id, domain, state, token, verified_at, last_checked_at, next_check_at, misses, created_at, updated_at';

interface DomainRow {
  id: string;
  tenant_id: string;
  domain: string;
  state: DomainState;
  token: string;
  verified_at: Date | string | null;
  last_checked_at: Date | string | null;
  next_check_at: Date | string | null;
  misses: number;
  created_at: Date | string;
  updated_at: Date | string;
}

const orNull = (value: Date | string | null) => (value === null ? null : new Date(value));

const rowToRecord = (r: DomainRow): DomainRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  domain: r.domain,
  state: r.state,
  token: r.token,
  verifiedAt: orNull(r.verified_at),
  lastCheckedAt: orNull(r.last_checked_at),
  nextCheckAt: orNull(r.next_check_at),
  misses: r.misses,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** One change of a name at a time, whichever tenant: two cannot both verify it or both see it free. */
async function lockName(sql: Sql, domain: string): Promise<void> {
  await sql.query({ name: 'domain_name_lock', text: `select pg_advisory_xact_lock(hashtextextended('domains.name:' || $1, 0))`, values: [domain] });
}

async function domainBy(sql: Sql, target: DomainTarget): Promise<DomainRecord | undefined> {
  const { rows: [row] } =
    target.by === 'id'
      ? await sql.query<DomainRow>({ name: 'domain_by_id', text: `select ${COLUMNS} from domains where id = $1`, values: [target.id] })
      : await sql.query<DomainRow>({ name: 'domain_by_name', text: `select ${COLUMNS} from domains where tenant_id = $1 and domain = $2`, values: [target.tenantId, target.domain] });
  return row && rowToRecord(row);
}

async function writeDomain(sql: Sql, d: DomainRecord): Promise<void> {
  await sql.query({
    name: 'domain_put',
    text: `insert into domains (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
           on conflict (id) do update set state = excluded.state, verified_at = excluded.verified_at, last_checked_at = excluded.last_checked_at,
             next_check_at = excluded.next_check_at, misses = excluded.misses, updated_at = excluded.updated_at`,
    values: [d.id, d.tenantId, d.domain, d.state, d.token, d.verifiedAt, d.lastCheckedAt, d.nextCheckAt, d.misses, d.createdAt, d.updatedAt],
  });
}

export class PostgresDomainRepository implements DomainRepository {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async find(id: string): Promise<DomainRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return domainBy(await nativePool(this.#orm), { by: 'id', id });
  }

  async ofTenant(tenantId: string): Promise<DomainRecord[] | undefined> {
    if (!isUuid(tenantId)) return undefined;
    const pool = await nativePool(this.#orm);
    const { rows } = await pool.query<DomainRow & { tenant_found: boolean }>({
      name: 'domains_of_tenant',
      text: `select t.id is not null as tenant_found, d.* from (select $1::uuid as id) q
               left join tenants t on t.id = q.id left join domains d on d.tenant_id = t.id order by d.domain`,
      values: [tenantId],
    });
    if (!rows[0]?.tenant_found) return undefined;
    return rows.filter((row) => row.id !== null).map(rowToRecord);
  }

  async nextChecks(tenantId: string): Promise<{ id: string; at: Date }[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await (await nativePool(this.#orm)).query<{ id: string; next_check_at: Date | string }>({
      name: 'domain_next_checks',
      text: 'select id, next_check_at from domains where tenant_id = $1 and next_check_at is not null order by next_check_at',
      values: [tenantId],
    });
    return rows.map((row) => ({ id: row.id, at: new Date(row.next_check_at) }));
  }

  async verifiedNames(tenantId: string): Promise<string[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await (await nativePool(this.#orm)).query<{ domain: string }>({
      name: 'domain_verified_names',
      text: `select domain from domains where tenant_id = $1 and state = 'verified' order by domain`,
      values: [tenantId],
    });
    return rows.map((row) => row.domain);
  }

  change<T>(target: DomainTarget, meta: RequestMeta, decide: (facts: DomainChangeFacts, now: Date) => DomainChange<T>): Promise<DomainChangeWritten<T> | undefined> {
    if (target.by === 'id' ? !isUuid(target.id) : !isUuid(target.tenantId)) return Promise.resolve(undefined);
    return nativeTransaction(this.#orm, async (sql) => {
      const named = target.by === 'id' ? await domainBy(sql, target) : undefined;
      const tenantId = target.by === 'id' ? named?.tenantId : target.tenantId;
      const name = target.by === 'id' ? named?.domain : target.domain;
      if (!tenantId || !name) return undefined;
      // By name a domain may be new: the tenant's row locked first, so two new domains of one tenant are counted one
      // after the other (the name's lock comes after it, as in every change).
      const { rows: [tenant] } =
        target.by === 'name'
          ? await sql.query<{ found: boolean }>({ name: 'domain_change_tenant_locked', text: 'select true as found from tenants where id = $1 for no key update', values: [tenantId] })
          : await sql.query<{ found: boolean }>({ name: 'domain_change_tenant', text: 'select exists (select 1 from tenants where id = $1) as found', values: [tenantId] });
      if (!tenant?.found) return undefined;
      await lockName(sql, name);
      // Read again under the lock: a change that waited reads what the one before it wrote.
      const domain = await domainBy(sql, target);
      const { rows: [elsewhere] } = await sql.query<{ found: boolean }>({
        name: 'domain_verified_elsewhere',
        text: `select exists (select 1 from domains where domain = $1 and state = 'verified' and tenant_id <> $2) as found`,
        values: [name, tenantId],
      });
      const { rows: [counted] } = await sql.query<{ n: number }>({ name: 'domains_of_tenant_counted', text: 'select count(*)::int as n from domains where tenant_id = $1', values: [tenantId] });
      const change = decide({ domain, tenantId, verifiedElsewhere: elsewhere!.found, ofTenant: counted!.n }, new Date());
      if (change.remove && domain) await sql.query({ name: 'domain_delete', text: 'delete from domains where id = $1', values: [domain.id] });
      else if (change.put) await writeDomain(sql, change.put);
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      const handOffs = change.sync ? [await enqueueActorCommand(sql, tenantId, { kind: 'syncDomains' })] : [];
      return { result: change.result, handOffs };
    });
  }
}
