import type { TenantKind, TenantStatus } from '../schemas/tenant.ts';

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
  createdAt: Date;
  updatedAt: Date;
}
