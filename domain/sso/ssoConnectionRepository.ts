import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { CertificateNotice } from './certificateNotices.ts';
import type { DeletedSsoConnection, SsoConnectionRecord } from './ssoConnectionRecord.ts';

/** What a change of a connection is judged by, read under the lock of its tenant's domains. */
export interface SsoConnectionChangeFacts {
  connection: SsoConnectionRecord | undefined;
  tenantId: string;
  /** The tenant's verified domains. */
  verifiedDomains: ReadonlySet<string>;
  /** The tenant's connections, in every state; counted under the lock of the tenant's row for a new one. */
  ofTenant: number;
}

export interface SsoConnectionChange<T> {
  put?: SsoConnectionRecord;
  remove?: boolean;
  event?: AuditAppend;
  /** false: what is written leaves the identity provider as it is (a metadata refresh that changed nothing of it); no `syncSso`. */
  sync?: false;
  result: T;
}

/** An expiry notice of a SAML connection's signing certificate that was appended (domain/sso/certificateNotices.ts). */
export interface SentCertificateNotice {
  connectionId: string;
  fingerprintSha256: string;
  notice: CertificateNotice;
}

export interface SsoConnectionChangeWritten<T> {
  result: T;
  /** The `syncSso` hand-off of a change that wrote something. */
  handOffs: QueuedActorCommand[];
}

/** The tenants' SSO connections (store/postgresSsoConnectionRepository.ts); client secrets sealed at rest. A removed one leaves its DeletedSsoConnection. */
export interface SsoConnectionRepository {
  find(id: string): Promise<SsoConnectionRecord | undefined>;
  /** The connection of an identity provider alias (a first sign-in through it). */
  byAlias(alias: string): Promise<SsoConnectionRecord | undefined>;
  /** The deleted connection that had the alias: kept from its deletion on (the delete's own transaction). */
  deletedByAlias(alias: string): Promise<DeletedSsoConnection | undefined>;
  /** The tenant's connections, oldest first; undefined when there is no such tenant. */
  ofTenant(tenantId: string): Promise<SsoConnectionRecord[] | undefined>;
  change<T>(
    target: { by: 'id'; id: string } | { by: 'new'; tenantId: string },
    meta: RequestMeta,
    decide: (facts: SsoConnectionChangeFacts, now: Date) => SsoConnectionChange<T>,
  ): Promise<SsoConnectionChangeWritten<T> | undefined>;
  /** The certificate expiry notices appended for the tenant's connections. */
  sentCertificateNotices(tenantId: string): Promise<SentCertificateNotice[]>;
  /**
   * Records the notice with its audit event in one transaction, once: false (and nothing appended) when it was
   * recorded before or the connection is gone.
   */
  recordCertificateNotice(notice: SentCertificateNotice & { notAfter: Date; sentAt: Date }, event: AuditAppend, meta: RequestMeta): Promise<boolean>;
}
