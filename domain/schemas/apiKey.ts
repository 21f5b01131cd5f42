import { z } from 'zod';
import { DateTime, Uuid } from './common.ts';

export const ApiKey = z
  .object({
    id: Uuid,
    tenant_id: Uuid,
    product: z.string().optional(),
    name: z.string(),
    scopes: z.array(z.string()),
    prefix: z.string().meta({ description: 'the public part of the key, safe to display' }),
    created_by: z.string().optional(),
    last_used_at: DateTime.nullable().optional(),
    revoked_at: DateTime.nullable().optional(),
    created_at: DateTime,
  })
  .meta({ id: 'APIKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z.object({ items: z.array(ApiKey) }).meta({ id: 'APIKeyList' });

export const ApiKeyCreate = z
  .strictObject({
    tenant_id: Uuid,
    name: z.string().min(1).max(100),
    product: z.string().min(1).max(100).optional(),
    scopes: z.array(z.string().min(1).max(100)).max(50).optional(),
    created_by: z.string().max(255).optional(),
  })
  .meta({ id: 'APIKeyCreate' });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeyCreated = z
  .object({ api_key: ApiKey, plaintext: z.string(), warning: z.string() })
  .meta({ id: 'APIKeyCreated' });

export const ApiKeyVerifyRequest = z.object({ key: z.string() }).meta({ id: 'APIKeyVerifyRequest' });

export const ApiKeyVerify = z
  .object({
    valid: z.boolean(),
    tenant_id: Uuid.optional(),
    product: z.string().optional(),
    scopes: z.array(z.string()).optional(),
  })
  .meta({ id: 'APIKeyVerify' });
export type ApiKeyVerify = z.infer<typeof ApiKeyVerify>;
