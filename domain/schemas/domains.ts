import { z } from 'zod';
import { DOMAIN_STATES } from '../domains/domainRecord.ts';
import { DateTime, Uuid } from './common.ts';

export const Domain = z
  .object({
    id: Uuid,
    tenant_id: Uuid,
    domain: z.string(),
    state: z.enum(DOMAIN_STATES).meta({ description: 'pending until its TXT record is found; failed when the window passed or the record was lost' }),
    verification: z
      .object({
        type: z.literal('dns_txt'),
        name: z.string().meta({ description: 'where to publish the TXT record: _tenant-registry.<domain>' }),
        value: z.string().meta({ description: 'the TXT record’s value: tenant-registry-verification=<token>' }),
      })
      .meta({ description: 'the TXT record to publish' }),
    verified_at: DateTime.nullable(),
    last_checked_at: DateTime.nullable(),
    created_at: DateTime,
  })
  .meta({ id: 'Domain' });
export type Domain = z.infer<typeof Domain>;

export const DomainList = z.object({ items: z.array(Domain) }).meta({ id: 'DomainList' });

export const DomainCreate = z
  .strictObject({
    domain: z
      .string()
      .min(1)
      .max(254)
      .meta({ description: 'a domain name the tenant holds (not a public suffix, not a consumer mail domain such as gmail.com)' }),
  })
  .meta({ id: 'DomainCreate' });
