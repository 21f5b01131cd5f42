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
