import type { DeletedSsoConnection, IssuerEndpoints, SamlIdpMetadata, SsoConnectionRecord, SsoConnectionState, SsoProtocol } from '../domain/sso/ssoConnectionRecord.ts';
import type {
  SsoConnectionChange,
  SsoConnectionChangeFacts,
  SsoConnectionChangeWritten,
  SsoConnectionRepository,
  SentCertificateNotice,
} from '../domain/sso/ssoConnectionRepository.ts';
import type { AuditAppend } from '../domain/schemas/audit.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { appendAuditEvent } from './auditEventInsert.ts';
import { nativePool } from './nativePool.ts';
import { nativeTransaction } from './nativeTransaction.ts';
import type { Orm } from './orm.ts';
import { enqueueActorCommand } from './postgresActorOutbox.ts';
import type { Sql } from './sql.ts';
import { isUuid } from './uuidShape.ts';

const COLUMNS =
  'id, tenant_id, protocol, issuer, client_id, client_secret_sealed, endpoints, domains, state, idp_alias, created_at, updated_at, saml, metadata_url, metadata_refreshed_at, metadata_refresh_failed_at, metadata_refresh_error';

/** The SAML metadata as the `saml` column holds it: the certificates' not_after as ISO 8601. */
type StoredSamlMetadata = Omit<SamlIdpMetadata, 'certificates'> & { certificates: { pem: string; fingerprintSha256: string; notAfter: string }[] };

interface ConnectionRow {
  id: string;
  tenant_id: string;
  protocol: SsoProtocol;
  issuer: string;
  client_id: string | null;
  client_secret_sealed: string | null;
  endpoints: IssuerEndpoints | null;
  saml: StoredSamlMetadata | null;
  metadata_url: string | null;
  metadata_refreshed_at: Date | string | null;
  metadata_refresh_failed_at: Date | string | null;
  metadata_refresh_error: string | null;
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
  protocol: SsoProtocol;
  issuer: string;
  client_id: string | null;
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
    const common = {
      id: r.id,
      tenantId: r.tenant_id,
      issuer: r.issuer,
      domains: r.domains,
      state: r.state,
      idpAlias: r.idp_alias,
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
    };
    if (r.protocol === 'saml') {
      const saml = r.saml!;
      return {
        ...common,
        protocol: 'saml',
        saml: { ...saml, certificates: saml.certificates.map((c) => ({ ...c, notAfter: new Date(c.notAfter) })) },
        metadataUrl: r.metadata_url,
        metadataRefresh: {
          refreshedAt: new Date(r.metadata_refreshed_at!),
          failedAt: r.metadata_refresh_failed_at === null ? null : new Date(r.metadata_refresh_failed_at),
          error: r.metadata_refresh_error,
        },
      };
    }
    return {
      ...common,
      protocol: 'oidc',
      clientId: r.client_id!,
      clientSecret: this.#secrets.open(r.client_secret_sealed!, secretContext(r.id)),
      endpoints: r.endpoints!,
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
      text: 'select idp_alias, id, tenant_id, protocol, issuer, client_id, domains, deleted_at from deleted_sso_connections where idp_alias = $1',
      values: [alias],
    });
    if (!row) return undefined;
    return {
      id: row.id,
      tenantId: row.tenant_id,
      protocol: row.protocol,
      issuer: row.issuer,
      clientId: row.client_id,
      domains: row.domains,
      state: 'deleted',
      idpAlias: row.idp_alias,
      deletedAt: new Date(row.deleted_at),
    };
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
          text: `insert into deleted_sso_connections (idp_alias, id, tenant_id, protocol, issuer, client_id, domains, deleted_at)
                 values ($1, $2, $3, $4, $5, $6, $7, clock_timestamp()) on conflict (idp_alias) do nothing`,
          values: [connection.idpAlias, connection.id, connection.tenantId, connection.protocol, connection.issuer, connection.protocol === 'oidc' ? connection.clientId : null, connection.domains],
        });
        await sql.query({ name: 'sso_connection_delete', text: 'delete from sso_connections where id = $1', values: [connection.id] });
      } else if (change.put) {
        await this.#put(sql, change.put);
      }
      if (change.event) await appendAuditEvent(sql, change.event, meta);
      const handOffs = written && change.sync !== false ? [await enqueueActorCommand(sql, tenantId, { kind: 'syncSso', connection_id: written.id })] : [];
      return { result: change.result, handOffs };
    });
  }

  /** Writes the connection whole: a SAML one's metadata and refresh times too (the protocol and the client never change). */
  async #put(sql: Sql, c: SsoConnectionRecord): Promise<void> {
    const oidc = c.protocol === 'oidc' ? c : undefined;
    const saml = c.protocol === 'saml' ? c : undefined;
    await sql.query({
      name: 'sso_connection_put',
      text: `insert into sso_connections (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
             on conflict (id) do update set issuer = excluded.issuer, client_secret_sealed = excluded.client_secret_sealed, domains = excluded.domains,
               state = excluded.state, updated_at = excluded.updated_at, saml = excluded.saml, metadata_url = excluded.metadata_url,
               metadata_refreshed_at = excluded.metadata_refreshed_at, metadata_refresh_failed_at = excluded.metadata_refresh_failed_at,
               metadata_refresh_error = excluded.metadata_refresh_error`,
      values: [
        c.id,
        c.tenantId,
        c.protocol,
        c.issuer,
        oidc?.clientId ?? null,
        oidc ? this.#secrets.seal(oidc.clientSecret, secretContext(c.id)) : null,
        oidc ? JSON.stringify(oidc.endpoints) : null,
        c.domains,
        c.state,
        c.idpAlias,
        c.createdAt,
        c.updatedAt,
        saml ? JSON.stringify(saml.saml) : null,
        saml?.metadataUrl ?? null,
        saml?.metadataRefresh.refreshedAt ?? null,
        saml?.metadataRefresh.failedAt ?? null,
        saml?.metadataRefresh.error ?? null,
      ],
    });
  }

  async sentCertificateNotices(tenantId: string): Promise<SentCertificateNotice[]> {
    if (!isUuid(tenantId)) return [];
    const pool = await nativePool(this.#orm);
    const { rows } = await pool.query<{ connection_id: string; fingerprint_sha256: string; notice: SentCertificateNotice['notice'] }>({
      name: 'sso_certificate_notices_of_tenant',
      text: `select n.connection_id, n.fingerprint_sha256, n.notice from sso_certificate_notices n
               join sso_connections c on c.id = n.connection_id where c.tenant_id = $1`,
      values: [tenantId],
    });
    return rows.map((r) => ({ connectionId: r.connection_id, fingerprintSha256: r.fingerprint_sha256, notice: r.notice }));
  }

  recordCertificateNotice(notice: SentCertificateNotice & { notAfter: Date; sentAt: Date }, event: AuditAppend, meta: RequestMeta): Promise<boolean> {
    return nativeTransaction(this.#orm, async (sql) => {
      const { rows } = await sql.query({
        name: 'sso_certificate_notice_record',
        text: `insert into sso_certificate_notices (connection_id, fingerprint_sha256, notice, not_after, sent_at)
               select $1::uuid, $2::text, $3::text, $4::timestamptz, $5::timestamptz where exists (select 1 from sso_connections where id = $1::uuid)
               on conflict do nothing returning connection_id`,
        values: [notice.connectionId, notice.fingerprintSha256, notice.notice, notice.notAfter, notice.sentAt],
      });
      if (rows.length === 0) return false;
      await appendAuditEvent(sql, event, meta);
      return true;
    });
  }
}
