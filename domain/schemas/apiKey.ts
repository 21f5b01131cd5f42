import { z } from 'zod';
import { DateTime, Uuid } from './common.ts';
import { VERIFY_CODES } from '../apiKeys/keyVerdict.ts';
import { DEFAULT_ROTATION_GRACE_SECONDS, MAX_ROTATION_GRACE_SECONDS } from '../apiKeys/rotationGrace.ts';

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
    expires_at: DateTime.nullable().meta({ description: 'after this instant the key no longer verifies (EXPIRED); null: no expiry' }),
    rotated_from: Uuid.nullable().meta({ description: 'the key this one replaced by rotation' }),
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
    expires_at: DateTime.optional().meta({ description: 'must be in the future' }),
  })
  .meta({ id: 'APIKeyCreate' });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

export const ApiKeyCreated = z
  .object({ api_key: ApiKey, plaintext: z.string(), warning: z.string() })
  .meta({ id: 'APIKeyCreated' });

export const ApiKeyRotate = z
  .strictObject({
    grace_seconds: z
      .int()
      .min(0)
      .max(MAX_ROTATION_GRACE_SECONDS)
      .optional()
      .meta({ description: `how long the old key keeps working; default ${DEFAULT_ROTATION_GRACE_SECONDS}, 0 ends it at once` }),
  })
  .meta({ id: 'APIKeyRotate' });

const ApiKeyVerifyFields = z.object({
  key: z.string().meta({ description: 'the presented key' }),
  required_scopes: z.array(z.string()).optional().meta({ description: 'every one must be on the key (else INSUFFICIENT_SCOPE)' }),
  product: z.string().optional().meta({ description: 'the key must be for this product or for none (else WRONG_PRODUCT)' }),
});

/**
 * What verify reads, as the contract states it: the fields above, or anything else, which is judged too (NOT_FOUND)
 * rather than refused: verify never answers 4xx, so a product's hot path has one outcome to handle.
 */
export const ApiKeyVerifyRequest = z
  .union([ApiKeyVerifyFields, z.unknown().meta({ description: 'any other JSON (or none): the verdict NOT_FOUND' })])
  .meta({ id: 'APIKeyVerifyRequest' });

export const ApiKeyVerify = z
  .object({
    valid: z.boolean(),
    code: z.enum(VERIFY_CODES).meta({ description: 'VALID, or why the key was refused' }),
    key_id: Uuid.optional(),
    tenant_id: Uuid.optional(),
    product: z.string().optional(),
    scopes: z.array(z.string()).optional(),
    expires_at: DateTime.nullable().optional(),
  })
  .meta({ id: 'APIKeyVerify' });
export type ApiKeyVerify = z.infer<typeof ApiKeyVerify>;
