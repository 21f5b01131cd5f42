import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { DomainRecord } from './domainRecord.ts';

/** Which domain a change is about: one by id, or a tenant's by name (a new one is judged against it). */
export type DomainTarget = { by: 'id'; id: string } | { by: 'name'; tenantId: string; domain: string };

/** What a change of a domain is judged by, read under the lock of its name. */
export interface DomainChangeFacts {
  domain: DomainRecord | undefined;
  tenantId: string;
  /** Another tenant holds the name verified. */
  verifiedElsewhere: boolean;
  /** The tenant's domains, in every state; counted under the lock of the tenant's row for a change by name. */
  ofTenant: number;
}

/** What a change writes, decided by a rule and written in one transaction. */
export interface DomainChange<T> {
  put?: DomainRecord;
  remove?: boolean;
  event?: AuditAppend;
  /** Hand the tenant's actor a `syncDomains`: its organization's verified domains, and its timers read again. */
  sync?: boolean;
  result: T;
}

export interface DomainChangeWritten<T> {
  result: T;
  handOffs: QueuedActorCommand[];
}

/**
 * The domains' store (store/postgresDomainRepository.ts). A change takes a lock on the domain's name, so two tenants
 * cannot both verify one name (a partial unique index holds the same rule).
 */
export interface DomainRepository {
  find(id: string): Promise<DomainRecord | undefined>;
  /** The tenant's domains by name; undefined when there is no such tenant. */
  ofTenant(tenantId: string): Promise<DomainRecord[] | undefined>;
  /** When the tenant's domains are to be looked up next (the actor's timers). */
  nextChecks(tenantId: string): Promise<{ id: string; at: Date }[]>;
  /** The names the tenant holds verified (its organization's domains). */
  verifiedNames(tenantId: string): Promise<string[]>;
  change<T>(target: DomainTarget, meta: RequestMeta, decide: (facts: DomainChangeFacts, now: Date) => DomainChange<T>): Promise<DomainChangeWritten<T> | undefined>;
}
