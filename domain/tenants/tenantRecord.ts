import type { TenantKind, TenantStatus } from '../schemas/tenant.ts';
import type { StoredTenantSettings } from './tenantSettings.ts';

/** A tenant as the registry keeps it. */
export interface TenantRecord {
  id: string;
  slug: string;
  name: string;
  status: TenantStatus;
  kind: TenantKind;
  plan: string;
  erpCustomerId: string | null;
  paymentCustId: string | null;
  trialEndsAt: Date | null;
  /** The trial_ends_at whose reminder was sent (the reminder is sent once per date). */
  trialRemindedFor: Date | null;
  /** Calendar dates, YYYY-MM-DD. */
  contractStart: string | null;
  contractEnd: string | null;
  salesOwner: string | null;
  adminEmail: string | null;
  adminName: string | null;
  /** What the tenant set of SPEC-EXTENSIONS §9's settings; the defaults apply to the rest (tenantSettings.ts). */
  settings: StoredTenantSettings;
  createdAt: Date;
  updatedAt: Date;
}
