import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
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
  result: T;
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
}
