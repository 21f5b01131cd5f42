import { BoundedTtlMap } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';
import type { SignInPolicy } from '../signIn/signInPolicy.ts';

/** A tenant as verify (its status) and claims (its plan, entitlements and what a sign-in is judged by) read it. */
export interface CachedTenant {
  id: string;
  slug: string;
  plan: string;
  status: string;
  entitlements: { product: string; enabled: boolean; expiresAt: number | null }[];
  /** Its sign-in policy (settings.sign_in), defaults filled in. */
  signIn: SignInPolicy;
  /** The identity-provider aliases of its active SSO connections: a sign-in through one is through the tenant's SSO. */
  ssoAliases: string[];
}

/** Tenants for verify and claims, by id and by slug. */
export class TenantCache {
  readonly #validity: CacheValidity;
  readonly #tenants: BoundedTtlMap<string, CachedTenant>;
  /** slug → tenant id; a hit is confirmed against the tenant's own slug. */
  readonly #slugs: BoundedTtlMap<string, string>;
  /** Look-ups answered from memory or not, for the metrics. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(validity: CacheValidity, maxTenants: number) {
    this.#validity = validity;
    this.#tenants = new BoundedTtlMap(maxTenants);
    this.#slugs = new BoundedTtlMap(maxTenants);
  }

  get(id: string): CachedTenant | undefined {
    const tenant = this.#validity.active ? this.#tenants.get(id, this.#validity.now()) : undefined;
    if (tenant) this.stats.hits += 1;
    else this.stats.misses += 1;
    return tenant;
  }

  bySlug(slug: string): CachedTenant | undefined {
    if (!this.#validity.active) return undefined;
    const id = this.#slugs.get(slug, this.#validity.now());
    const tenant = id === undefined ? undefined : this.get(id);
    return tenant?.slug === slug ? tenant : undefined;
  }

  put(tenant: CachedTenant, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    const expiresAt = now + this.#validity.ttlMs;
    this.#tenants.set(tenant.id, tenant, expiresAt, now);
    this.#slugs.set(tenant.slug, tenant.id, expiresAt, now);
  }

  /** The tenant stored within staleIfErrorMs, by id or slug: for when the store read failed. */
  stale(lookup: { by: 'id'; id: string } | { by: 'slug'; slug: string }): CachedTenant | undefined {
    const id = lookup.by === 'id' ? lookup.id : this.#validity.staleIfError(this.#slugs.peek(lookup.slug));
    const tenant = id === undefined ? undefined : this.#validity.staleIfError(this.#tenants.peek(id));
    return lookup.by === 'slug' && tenant?.slug !== lookup.slug ? undefined : tenant;
  }

  /** Its slug's entry stays: a hit by slug is confirmed against the tenant, which is gone. */
  forget(id: string): void {
    this.#tenants.delete(id);
  }

  sweep(now: number): void {
    this.#tenants.sweep(now, this.#validity.staleIfErrorMs);
    this.#slugs.sweep(now, this.#validity.staleIfErrorMs);
  }

  clear(): void {
    this.#tenants.clear();
    this.#slugs.clear();
  }

  held(): { tenant: number } {
    return { tenant: this.#tenants.size };
  }
}
