import type { TenantRecord } from './tenantRecord.ts';
import type { Tenant } from '../schemas/tenant.ts';
import { isoTimestamp } from '../isoTimestamp.ts';
import { tenantSettingsOf } from './tenantSettings.ts';

/** PostgreSQL `date` columns come back as text or as a Date at local midnight depending on the driver path. */
const calendarDate = (d: string | Date | null | undefined) =>
  d == null ? null : typeof d === 'string' ? d.slice(0, 10) : `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

export function toTenant(record: TenantRecord): Tenant {
  const tenant: Tenant = {
    id: record.id,
    slug: record.slug,
    name: record.name,
    status: record.status,
    kind: record.kind,
    plan: record.plan,
    trial_ends_at: record.trialEndsAt ? isoTimestamp(record.trialEndsAt) : null,
    contract_start: calendarDate(record.contractStart),
    contract_end: calendarDate(record.contractEnd),
    settings: tenantSettingsOf(record.settings),
    created_at: isoTimestamp(record.createdAt),
    updated_at: isoTimestamp(record.updatedAt),
  };
  if (record.erpCustomerId) tenant.erp_customer_id = record.erpCustomerId;
  if (record.paymentCustId) tenant.payment_cust_id = record.paymentCustId;
  if (record.salesOwner) tenant.sales_owner = record.salesOwner;
  return tenant;
}
