import { toApiKey } from '../../../domain/apiKeys/apiKeyResponse.ts';
import type { ApiKeyChange, ApiKeyRepository, LockedApiKey, VerifiableKey } from '../../../domain/apiKeys/apiKeyRepository.ts';
import type { ApiKeyRecord, NewApiKey } from '../../../domain/apiKeys/apiKeyRecord.ts';
import type { AuditAppend } from '../../../domain/schemas/audit.ts';

/** The keys aggregate's store in memory, for unit tests of the domain rules; counts verify's reads. */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  readonly keys = new Map<string, NewApiKey>();
  readonly tenants = new Map<string, string>();
  readonly events: AuditAppend[] = [];
  verifiableReads = 0;

  addTenant(id: string, status = 'active'): void {
    this.tenants.set(id, status);
  }

  async listOfTenant(tenantId: string): Promise<string[] | undefined> {
    if (!this.tenants.has(tenantId)) return undefined;
    return [...this.keys.values()].filter((k) => k.tenantId === tenantId).reverse().map((k) => JSON.stringify(toApiKey(k)));
  }

  async insert(key: NewApiKey, event: AuditAppend): Promise<boolean> {
    if (!this.tenants.has(key.tenantId)) return false;
    this.keys.set(key.id, structuredClone(key));
    this.events.push(event);
    return true;
  }

  async change<T>(id: string, _meta: unknown, decide: (key: LockedApiKey, now: Date) => ApiKeyChange<T>): Promise<T | undefined> {
    const key = this.keys.get(id);
    if (!key) return undefined;
    const successorId = [...this.keys.values()].find((k) => k.rotatedFrom === id)?.id ?? null;
    const change = decide({ ...structuredClone(key), successorId }, new Date());
    if (change.revokedAt) key.revokedAt = change.revokedAt;
    if (change.expiresAt) key.expiresAt = change.expiresAt;
    if (change.successor) this.keys.set(change.successor.id, structuredClone(change.successor));
    if (change.event) this.events.push(change.event);
    return change.result;
  }

  async findVerifiable(prefix: string): Promise<{ key: VerifiableKey; tenantStatus: string } | undefined> {
    this.verifiableReads += 1;
    const key = [...this.keys.values()].find((k) => k.prefix === prefix);
    if (!key) return undefined;
    return {
      key: {
        id: key.id,
        tenantId: key.tenantId,
        product: key.product,
        scopes: key.scopes,
        keyHash: key.keyHash,
        revoked: key.revokedAt !== null,
        expiresAt: key.expiresAt?.getTime() ?? null,
        lastUsedAt: key.lastUsedAt?.getTime() ?? 0,
      },
      tenantStatus: this.tenants.get(key.tenantId)!,
    };
  }

  async markUsed(): Promise<void> {}
}
