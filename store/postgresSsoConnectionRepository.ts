import type { DeletedSsoConnection, IssuerEndpoints, SsoConnectionRecord, SsoConnectionState } from '../domain/sso/ssoConnectionRecord.ts';
import type {
  SsoConnectionChange,
  SsoConnectionChangeFacts,
  SsoConnectionChangeWritten,
  SsoConnectionRepository,
} from '../domain/sso/ssoConnectionRepository.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import type { Sql } from './sql.ts';
import { isUuid } from './uuidShape.ts';

const COLUMNS = 'id, tenant_id, protocol, issuer, client_id, client_secret_sealed, endpoints, domains, state, idp_alias, created_at, updated_at';

interface ConnectionRow {
  id: string;
  tenant_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  endpoints: IssuerEndpoints;
  domains: string[];
  state: SsoConnectionState;
  idp_alias: string;
  created_at: Date | string;
  updated_at: Date | string;
}

interface DeletedRow {
  idp_alias: string;
  id: string;
  tenant_id: string;
  issuer: string;
  client_id: string;
  domains: string[];
  deleted_at: Date | string;
}

/** The sealed secret's context: a value copied to another connection's row does not open there. */
const secretContext = (id: string) => `sso_connection:${id}`;

/**
 * Tenants' SSO connections. A change runs in one transaction: a new one's tenant row locked (its connections are
 * counted under it), the tenant's domains locked (FOR SHARE: a domain that is verified now stays so until the
 * connection naming it is written), the connection (a deleted one kept in deleted_sso_connections), its event and its
 * `syncSso`.
 */
export class PostgresSsoConnectionRepository implements SsoConnectionRepository {
  readonly #orm: Orm;
  readonly #secrets: SecretBox;

  constructor(orm: Orm, secrets: SecretBox) {
    this.#orm = orm;
    this.#secrets = secrets;
  }

  #record(r: ConnectionRow): SsoConnectionRecord {
    return {
      id: r.id,
      tenantId: r.tenant_id,
      protocol: 'oidc',
      issuer: r.issuer,
      clientId: r.client_id,
      clientSecret: this.#secrets.open(r.client_secret_sealed, secretContext(r.id)),
      endpoints: r.endpoints,
      domains: r.domains,
      state: r.state,
      idpAlias: r.idp_alias,
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    };
  }

  async #one(sql: Sql, name: string, where: string, value: string, lock = ''): Promise<SsoConnectionRecord | undefined> {
    const { rows: [row] } = await sql.query<ConnectionRow>({ name, text: `select ${COLUMNS} from sso_connections where ${where} = $1${lock}`, values: [value] });
    return row && this.#record(row);
  }

  async find(id: string): Promise<SsoConnectionRecord | undefined> {
    if (!isUuid(id)) return undefined;
    return this.#one(await nativePool(this.#orm), 'sso_connection_by_id', 'id', id);
  }

  async byAlias(alias: string): Promise<SsoConnectionRecord | undefined> {
    return this.#one(await nativePool(this.#orm), 'sso_connection_by_alias', 'idp_alias', alias);
  }

  async deletedByAlias(alias: string): Promise<DeletedSsoConnection | undefined> {
    const pool = await nativePool(this.#orm);
    const { rows: [row] } = await pool.query<DeletedRow>({
      name: 'deleted_sso_connection_by_alias',
      text: 'select idp_alias, id, tenant_id, issuer, client_id, domains, deleted_at from deleted_sso_connections where idp_alias = $1',
      values: [alias],
    });
    if (!row) return undefined;
    return { id: row.id, tenantId: row.tenant_id, issuer: row.issuer, clientId: row.client_id, domains: row.domains, state: 'deleted', idpAlias: row.idp_alias, deletedAt: new Date(row.deleted_at) };
  }

  async ofTenant(tenantId: string): Promise<SsoConnectionRecord[] | undefined> {
    if (!isUuid(tenantId)) return undefined;
    const pool = await nativePool(this.#orm);
    const { rows: [tenant] } = await pool.query<{ found: boolean }>({ name: 'sso_tenant_exists', text: 'select exists (select 1 from tenants where id = $1) as found', values: [tenantId] });
    if (!tenant!.found) return undefined;
    const { rows } = await pool.query<ConnectionRow>({
      name: 'sso_connections_of_tenant',
      text: `select ${COLUMNS} from sso_connections where tenant_id = $1 order by created_at, id`,
      values: [tenantId],
    });
    return rows.map((row) => this.#record(row));
  }

  change<T>(
    target: { by: 'id'; id: string } | { by: 'new'; tenantId: string },
    meta: RequestMeta,
    decide: (facts: SsoConnectionChangeFacts, now: Date) => SsoConnectionChange<T>,
  ): Promise<SsoConnectionChangeWritten<T> | undefined> {
    if (target.by === 'id' ? !isUuid(target.id) : !isUuid(target.tenantId)) return Promise.resolve(undefined);
    return nativeTransaction(this.#orm, async (sql) => {
      const connection = target.by === 'id' ? await this.#one(sql, 'sso_connection_locked', 'id', target.id, ' for update') : undefined;
      const tenantId = target.by === 'id' ? connection?.tenantId : target.tenantId;
      if (!tenantId) return undefined;
      // A new connection locks the tenant's row first: two of one tenant are counted one after the other.
      const { rows: [tenant] } =
        target.by === 'new'
          ? await sql.query<{ found: boolean }>({ name: 'sso_tenant_locked', text: 'select true as found from tenants where id = $1 for no key update', values: [tenantId] })
          : await sql.query<{ found: boolean }>({ name: 'sso_tenant_exists', text: 'select exists (select 1 from tenants where id = $1) as found', values: [tenantId] });
      if (!tenant?.found) return undefined;
      const { rows: [counted] } = await sql.query<{ n: number }>({ name: 'sso_connections_of_tenant_counted', text: 'select count(*)::int as n from sso_connections where tenant_id = $1', values: [tenantId] });
      const { rows: verified } = await sql.query<{ domain: string }>({
        name: 'sso_verified_domains',
        text: `select domain from domains where tenant_id = $1 and state = 'verified' for share`,
        values: [tenantId],
      });
      const change = decide({ connection, tenantId, verifiedDomains: new Set(verified.map((row) => row.domain)), ofTenant: counted!.n }, new Date());
      const written = change.put ?? (change.remove ? connection : undefined);
      if (change.remove && connection) {
        await sql.query({
          name: 'sso_connection_deleted_kept',
          text: `insert into deleted_sso_connections (idp_alias, id, tenant_id, issuer, client_id, domains, deleted_at)
                 values ($1, $2, $3, $4, $5, $6, clock_timestamp()) on conflict (idp_alias) do nothing`,
          values: [connection.idpAlias, connection.id, connection.tenantId, connection.issuer, connection.clientId, connection.domains],
        });
        await sql.query({ name: 'sso_connection_delete', text: 'delete from sso_connections where id = $1', values: [connection.id] });
      } else if (change.put) {
        const c = change.put;
        await sql.query({
          name: 'sso_connection_put',
          text: `insert into sso_connections (${COLUMNS}) values ($1, $2, 'oidc', $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 on conflict (id) do update set client_secret_sealed = excluded.client_secret_sealed, domains = excluded.domains,
                   state = excluded.state, updated_at = excluded.updated_at`,
          values: [c.id, c.tenantId, c.issuer, c.clientId, this.#secrets.seal(c.clientSecret, secretContext(c.id)), JSON.stringify(c.endpoints), c.domains, c.state, c.idpAlias, c.createdAt, c.updatedAt],
        });
      }
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      const handOffs = written ? [await enqueueActorCommand(sql, tenantId, { kind: 'syncSso', connection_id: written.id })] : [];
      return { result: change.result, handOffs };
    });
  }
}
