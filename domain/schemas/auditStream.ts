import { z } from 'zod';
import { DateTime, Uuid } from './common.ts';

export const AuditStreamFilter = z
  .strictObject({
    tenant_id: Uuid.optional(),
    product: z.string().min(1).max(100).optional(),
    action_prefix: z.string().min(1).max(100).optional(),
  })
  .meta({ id: 'AuditStreamFilter' });

export const AuditStreamCreate = z
  .strictObject({
    url: z.url({ protocol: /^https?$/ }).max(2000).meta({ description: 'http or https; limited by AUDIT_STREAM_ALLOWED_HOSTS when set' }),
    secret: z.string().min(16).max(256).meta({ description: 'signs every delivery (X-Registry-Signature); never returned' }),
    filter: AuditStreamFilter.optional(),
  })
  .meta({ id: 'AuditStreamCreate' });
export type AuditStreamCreate = z.infer<typeof AuditStreamCreate>;

export const AuditStream = z
  .object({
    id: Uuid,
    url: z.string(),
    filter: AuditStreamFilter,
    created_at: DateTime,
    delivered_through_id: z.int().meta({ format: 'int64', description: 'the newest event delivered so far (addition)' }),
  })
  .meta({ id: 'AuditStream' });
export type AuditStream = z.infer<typeof AuditStream>;

export const AuditStreamList = z.object({ items: z.array(AuditStream) }).meta({ id: 'AuditStreamList' });
