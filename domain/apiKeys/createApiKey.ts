import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyEntity, type ApiKeyRecord } from '../entities/apiKeyEntity.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { ApiKeyCreate } from '../schemas/apiKey.ts';
import { generateApiKey } from '../apiKeyFormat.ts';
import { appendAuditEvent } from '../audit/appendAuditEvent.ts';
import { findTenantById } from '../tenants/findTenant.ts';

export const PLAINTEXT_WARNING = 'Store this key now: it is shown only once and cannot be recovered.';

export async function createApiKey(
  em: EntityManager,
  input: ApiKeyCreate,
  meta: RequestMeta,
): Promise<{ record: ApiKeyRecord; plaintext: string }> {
  return em.transactional(async (tx) => {
    const tenant = await findTenantById(tx, input.tenant_id);
    const { plaintext, prefix, hash } = generateApiKey();
    const record = tx.create(ApiKeyEntity, {
      id: randomUUID(),
      tenantId: tenant.id,
      product: input.product ?? null,
      name: input.name,
      scopes: [...new Set(input.scopes ?? [])],
      prefix,
      keyHash: hash,
      createdBy: input.created_by ?? null,
      lastUsedAt: null,
      revokedAt: null,
      createdAt: new Date(),
    });
    await tx.flush();
    await appendAuditEvent(
      tx,
      {
        action: 'api_key.created',
        tenant_id: tenant.id,
        product: input.product,
        target_id: record.id,
        target_type: 'api_key',
        target_name: input.name,
        metadata: { prefix, scopes: record.scopes },
      },
      meta,
    );
    return { record, plaintext };
  });
}
