import type { TenantDocument } from '../reads/documentCache.ts';
import type { QueuedActorCommand } from '../changeEffects/changeEffects.ts';
import type { TenantLookup } from '../claims/claimsLookup.ts';
import type { TenantProductRecord } from '../entitlements/tenantProductRecord.ts';
import type { CachedTenant } from '../reads/tenantCache.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { OutboxCommand } from '../tenantActor/tenantActorCommand.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { TenantRecord } from './tenantRecord.ts';

export interface TenantListFilter {
  status?: string;
  kind?: string;
  plan?: string;
  /** Case-insensitive prefix of the slug or the name. */
  prefix?: string;
  /** Only these tenants (a tenant-bound caller's); an id that is not a tenant's matches nothing. */
  ids?: string[];
}

/** Where a page of the listing continues: below this tenant in (created_at, id) order. */
export interface TenantListPosition {
  /** created_at to the microsecond the store keeps (ISO 8601, UTC), so no tenant of the same millisecond is skipped. */
  createdAt: string;
  id: string;
}

/** A tenant read under its row lock, with its entitlements. */
export interface LockedTenant extends TenantRecord {
  entitlements: TenantProductRecord[];
}

/** What a change of one tenant writes, decided by a domain rule and written by the repository in one transaction. */
export interface TenantChange<T> {
  /** Fields of the tenant to store (updated_at included). */
  update?: Partial<TenantRecord>;
  /** Entitlements to create, or to replace the one of the same product. */
  putEntitlements?: TenantProductRecord[];
  /** The product whose entitlement to delete. */
  removeEntitlement?: string;
  /** The audit events of the change, in order; none when nothing changed. */
  events?: AuditAppend[];
  /** Status, plan or current products changed: queue a push of the claims to the tenant's users with the change. */
  pushClaims: boolean;
  result: T;
}

/** What a committed change of one tenant wrote, for the service to decide what follows it. */
export interface TenantChangeWritten<T> {
  result: T;
  /** The rule said the tenant's claims changed (its `pushClaims`). */
  claimsChanged: boolean;
  /** The hand-offs written with the change (a claims push when claims changed). */
  handOffs: QueuedActorCommand[];
}

/** The tenant aggregate's store: tenants, their entitlements and the hand-offs to their actors (store/postgresTenantRepository.ts). */
export interface TenantRepository {
  find(lookup: TenantLookup): Promise<TenantRecord | undefined>;
  /** What claims and verify need (status, slug, plan, entitlements), in one read. */
  snapshot(lookup: TenantLookup): Promise<CachedTenant | undefined>;
  snapshots(ids: string[]): Promise<CachedTenant[]>;
  /** A page of the listing, newest first, after the position `after` (from the previous page's last tenant): its tenants' positions. */
  page(filter: TenantListFilter, after: TenantListPosition | undefined, limit: number): Promise<TenantListPosition[]>;
  /**
   * The tenants of `ids` that exist, each as the API's Tenant JSON text (toTenant's document, byte for byte), in no
   * particular order: what the listing passes through.
   */
  documents(ids: string[]): Promise<TenantDocument[]>;
  /** Every entitlement, disabled and expired ones included, by product; undefined when there is no such tenant. */
  entitlementsOf(tenantId: string): Promise<TenantProductRecord[] | undefined>;
  /**
   * The tenant, its creation event and the hand-off to its actor that the service chose, in one commit;
   * `slug_taken` (nothing written) when the slug belongs to another tenant.
   */
  create(tenant: TenantRecord, event: AuditAppend, meta: RequestMeta, handOff: OutboxCommand): Promise<{ handOff: QueuedActorCommand } | 'slug_taken'>;
  /**
   * Locks the tenant, lets `decide` (a pure rule) say what to write, and writes it with its audit event and, when
   * claims changed, the claims-push hand-off, in one transaction; a rule that throws writes nothing.
   * Undefined when there is no such tenant.
   */
  change<T>(id: string, meta: RequestMeta, decide: (tenant: LockedTenant, now: Date) => TenantChange<T>): Promise<TenantChangeWritten<T> | undefined>;
}
