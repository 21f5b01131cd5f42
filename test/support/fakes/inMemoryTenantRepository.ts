import { toTenant } from '../../../domain/tenants/tenantResponse.ts';
import type { QueuedActorCommand } from '../../../domain/changeEffects/changeEffects.ts';
import type { TenantLookup } from '../../../domain/claims/claimsLookup.ts';
import type { OutboxCommand } from '../../../domain/tenantActor/tenantActorCommand.ts';
import type { TenantProductRecord } from '../../../domain/entitlements/tenantProductRecord.ts';
import type { CachedTenant } from '../../../domain/reads/tenantCache.ts';
import { signInPolicyOf } from '../../../domain/signIn/signInPolicy.ts';
import type { AuditAppend } from '../../../domain/schemas/audit.ts';
import type { TenantRecord } from '../../../domain/tenants/tenantRecord.ts';
import type { LockedTenant, TenantChange, TenantChangeWritten, TenantListFilter, TenantListPosition, TenantRepository } from '../../../domain/tenants/tenantRepository.ts';

/** The tenant aggregate's store in memory, for unit tests of the domain rules; counts reads and keeps the outbox it writes. */
export class InMemoryTenantRepository implements TenantRepository {
  readonly tenants = new Map<string, TenantRecord>();
  readonly entitlements: TenantProductRecord[] = [];
  readonly events: AuditAppend[] = [];
  /** The hand-offs written with each change, as the outbox table holds them. */
  readonly outbox: QueuedActorCommand[] = [];
  snapshotReads = 0;
  /** Each tenant's active SSO connections' aliases, as its snapshot reads them. */
  readonly ssoAliases = new Map<string, string[]>();

  #byLookup(lookup: TenantLookup): TenantRecord | undefined {
    return lookup.by === 'id' ? this.tenants.get(lookup.id) : [...this.tenants.values()].find((t) => t.slug === lookup.slug);
  }

  #snapshotOf(tenant: TenantRecord): CachedTenant {
    return {
      id: tenant.id,
      slug: tenant.slug,
      plan: tenant.plan,
      status: tenant.status,
      entitlements: this.entitlements
        .filter((e) => e.tenantId === tenant.id)
        .map((e) => ({ product: e.product, enabled: e.enabled, expiresAt: e.expiresAt?.getTime() ?? null })),
      signIn: signInPolicyOf(tenant.settings.sign_in),
      ssoAliases: this.ssoAliases.get(tenant.id) ?? [],
    };
  }

  async find(lookup: TenantLookup): Promise<TenantRecord | undefined> {
    const tenant = this.#byLookup(lookup);
    return tenant && structuredClone(tenant);
  }

  async snapshot(lookup: TenantLookup): Promise<CachedTenant | undefined> {
    this.snapshotReads += 1;
    const tenant = this.#byLookup(lookup);
    return tenant && this.#snapshotOf(tenant);
  }

  async snapshots(ids: string[]): Promise<CachedTenant[]> {
    this.snapshotReads += 1;
    return ids.flatMap((id) => (this.tenants.has(id) ? [this.#snapshotOf(this.tenants.get(id)!)] : []));
  }

  async page(filter: TenantListFilter, after: TenantListPosition | undefined, limit: number) {
    const micros = (t: TenantRecord) => t.createdAt.toISOString().replace('Z', '000Z');
    const key = (t: TenantRecord) => `${micros(t)}|${t.id}`;
    return [...this.tenants.values()]
      .filter((t) => (!filter.status || t.status === filter.status) && (!filter.kind || t.kind === filter.kind) && (!filter.plan || t.plan === filter.plan))
      .filter((t) => !filter.ids || filter.ids.includes(t.id))
      .filter((t) => !filter.prefix || t.slug.toLowerCase().startsWith(filter.prefix) || t.name.toLowerCase().startsWith(filter.prefix))
      .filter((t) => !after || key(t) < `${after.createdAt}|${after.id}`)
      .sort((a, b) => (key(a) < key(b) ? 1 : -1))
      .slice(0, limit)
      .map((t) => ({ createdAt: micros(t), id: t.id }));
  }

  async documents(ids: string[]) {
    return ids.flatMap((id) => {
      const t = this.tenants.get(id);
      return t ? [{ id, slug: t.slug, json: JSON.stringify(toTenant(t)) }] : [];
    });
  }

  async entitlementsOf(tenantId: string): Promise<TenantProductRecord[] | undefined> {
    if (!this.tenants.has(tenantId)) return undefined;
    return this.entitlements.filter((e) => e.tenantId === tenantId);
  }

  #enqueue(tenantId: string, command: OutboxCommand): QueuedActorCommand {
    const queued = { id: this.outbox.length + 1, tenantId, command };
    this.outbox.push(queued);
    return queued;
  }

  async create(tenant: TenantRecord, event: AuditAppend, _meta: unknown, handOff: OutboxCommand): Promise<{ handOff: QueuedActorCommand } | 'slug_taken'> {
    if ([...this.tenants.values()].some((t) => t.slug === tenant.slug)) return 'slug_taken';
    this.tenants.set(tenant.id, structuredClone(tenant));
    this.events.push(event);
    return { handOff: this.#enqueue(tenant.id, handOff) };
  }

  async change<T>(id: string, _meta: unknown, decide: (tenant: LockedTenant, now: Date) => TenantChange<T>): Promise<TenantChangeWritten<T> | undefined> {
    const tenant = this.tenants.get(id);
    if (!tenant) return undefined;
    const change = decide({ ...structuredClone(tenant), entitlements: structuredClone((await this.entitlementsOf(id)) ?? []) }, new Date());
    if (change.update) Object.assign(tenant, change.update);
    for (const put of change.putEntitlements ?? []) {
      const at = this.entitlements.findIndex((e) => e.tenantId === id && e.product === put.product);
      if (at >= 0) this.entitlements.splice(at, 1);
      this.entitlements.push(structuredClone(put));
    }
    if (change.removeEntitlement) {
      const at = this.entitlements.findIndex((e) => e.tenantId === id && e.product === change.removeEntitlement);
      if (at >= 0) this.entitlements.splice(at, 1);
    }
    this.events.push(...(change.events ?? []));
    if (!change.pushClaims) return { result: change.result, claimsChanged: false, handOffs: [] };
    return { result: change.result, claimsChanged: true, handOffs: [this.#enqueue(id, { kind: 'pushClaims' })] };
  }
}
