import { BoundedTtlMap, type Entry } from './boundedTtlMap.ts';
import type { CacheValidity } from './cacheValidity.ts';

/** A tenant as GET /v1/tenants/{id} and by-slug answer it: its id and slug, and the Tenant body's JSON text. */
export interface TenantDocument {
  id: string;
  slug: string;
  json: string;
}

/** Single resources as their reads answer them, JSON ready to send: a tenant, a tenant's entitlements, the catalog. */
export class DocumentCache {
  readonly #validity: CacheValidity;
  /** Tenants as their reads answer them, by id; by slug through #tenantSlugs. */
  readonly #tenants: BoundedTtlMap<string, TenantDocument>;
  readonly #tenantSlugs: BoundedTtlMap<string, string>;
  /** Tenants' entitlements as their listing answers them (the TenantProductList body's JSON), by tenant id. */
  readonly #entitlements: BoundedTtlMap<string, string>;
  /** The catalog as its listing answers it (the CatalogList body's JSON, text or bytes): the same for every caller. */
  #catalog: Entry<string | Buffer> | undefined;

  constructor(validity: CacheValidity, maxTenants: number) {
    this.#validity = validity;
    this.#tenants = new BoundedTtlMap(maxTenants);
    this.#tenantSlugs = new BoundedTtlMap(maxTenants);
    this.#entitlements = new BoundedTtlMap(maxTenants);
  }

  /** The tenant as its read answers it. */
  tenant(lookup: { by: 'id'; id: string } | { by: 'slug'; slug: string }): TenantDocument | undefined {
    if (!this.#validity.active) return undefined;
    const now = this.#validity.now();
    const id = lookup.by === 'id' ? lookup.id : this.#tenantSlugs.get(lookup.slug, now);
    const document = id === undefined ? undefined : this.#tenants.get(id, now);
    return document !== undefined && (lookup.by === 'id' || document.slug === lookup.slug) ? document : undefined;
  }

  /** The tenant's entitlements as their listing answers them. */
  entitlements(tenantId: string): string | undefined {
    return this.#validity.active ? this.#entitlements.get(tenantId, this.#validity.now()) : undefined;
  }

  /** The catalog as its listing answers it. */
  catalog(): string | Buffer | undefined {
    if (!this.#validity.active) return undefined;
    const entry = this.#catalog;
    return entry && entry.expiresAt > this.#validity.now() ? entry.value : undefined;
  }

  putTenant(document: TenantDocument, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#tenants.set(document.id, document, now + this.#validity.ttlMs, now);
    this.#tenantSlugs.set(document.slug, document.id, now + this.#validity.ttlMs, now);
  }

  putEntitlements(tenantId: string, json: string, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#entitlements.set(tenantId, json, now + this.#validity.ttlMs, now);
  }

  putCatalog(json: string | Buffer, loadedAtGeneration: number): void {
    if (!this.#validity.accepts(loadedAtGeneration)) return;
    const now = this.#validity.now();
    this.#catalog = { value: json, expiresAt: now + this.#validity.ttlMs, storedAt: now };
  }

  /** The tenant's document and its entitlements'. */
  forgetTenant(id: string): void {
    this.#tenants.delete(id);
    this.#entitlements.delete(id);
  }

  forgetCatalog(): void {
    this.#catalog = undefined;
  }

  sweep(now: number): void {
    this.#tenants.sweep(now, this.#validity.staleIfErrorMs);
    this.#tenantSlugs.sweep(now, this.#validity.staleIfErrorMs);
    this.#entitlements.sweep(now, this.#validity.staleIfErrorMs);
    if (this.#catalog && this.#catalog.expiresAt <= now) this.#catalog = undefined;
  }

  clear(): void {
    this.#tenants.clear();
    this.#tenantSlugs.clear();
    this.#entitlements.clear();
    this.#catalog = undefined;
  }

  held(): { tenant_document: number; entitlements: number } {
    return { tenant_document: this.#tenants.size, entitlements: this.#entitlements.size };
  }
}
