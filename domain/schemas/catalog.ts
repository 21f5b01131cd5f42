import { z } from 'zod';
import { Uuid } from './common.ts';

export const CatalogEntry = z
  .object({
    key: z.string(),
    name: z.string(),
    description: z.string(),
    plans_required: z.array(z.string()),
    demo_url: z.string().optional(),
    supports_trial: z.boolean(),
  })
  .meta({ id: 'CatalogEntry' });
export type CatalogEntry = z.infer<typeof CatalogEntry>;

export const CatalogList = z.object({ items: z.array(CatalogEntry) }).meta({ id: 'CatalogList' });

export const CatalogRequest = z
  .strictObject({ tenant_id: Uuid, product: z.string().min(1).max(100) })
  .meta({ id: 'CatalogRequest' });
export type CatalogRequest = z.infer<typeof CatalogRequest>;
