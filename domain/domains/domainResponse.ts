import { isoTimestamp } from '../isoTimestamp.ts';
import type { Domain } from '../schemas/domains.ts';
import { verificationName, verificationValue, type DomainRecord } from './domainRecord.ts';

export const toDomain = (d: DomainRecord): Domain => ({
  id: d.id,
  tenant_id: d.tenantId,
  domain: d.domain,
  state: d.state,
  verification: { type: 'dns_txt', name: verificationName(d.domain), value: verificationValue(d.token) },
  verified_at: d.verifiedAt ? isoTimestamp(d.verifiedAt) : null,
  last_checked_at: d.lastCheckedAt ? isoTimestamp(d.lastCheckedAt) : null,
  created_at: isoTimestamp(d.createdAt),
});
