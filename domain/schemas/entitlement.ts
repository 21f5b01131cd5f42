import { z } from 'zod';
import { DateTime, JsonObject, Uuid } from './common.ts';

export const TenantProduct = z
  .object({
    tenant_id: Uuid,
    product: z.string(),
    enabled: z.boolean(),
    config: JsonObject,
    expires_at: DateTime.nullable().optional(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'TenantProduct' });
export type TenantProduct = z.infer<typeof TenantProduct>;

export const TenantProductList = z.object({ items: z.array(TenantProduct) }).meta({ id: 'TenantProductList' });

export const ProductKey = z.string().regex(/^[a-z0-9][a-z0-9-]{0,98}[a-z0-9]$/, 'must be a catalog product key');
export const TenantProductParams = z.object({ id: Uuid, product: ProductKey });

export const EntitlementPut = z
  .strictObject({
    enabled: z.boolean().optional().meta({ description: 'default true' }),
    config: JsonObject.optional(),
    expires_at: DateTime.nullable().optional().meta({ description: 'null: no expiry' }),
  })
  .meta({ id: 'EntitlementPut' });
export type EntitlementPut = z.infer<typeof EntitlementPut>;
