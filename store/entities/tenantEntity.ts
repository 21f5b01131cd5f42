import { defineEntity, p } from '@mikro-orm/postgresql';
import { TENANT_KINDS, TENANT_STATUSES } from '../../domain/schemas/tenant.ts';

export const TenantEntity = defineEntity({
  name: 'Tenant',
  tableName: 'tenants',
  properties: {
    id: p.uuid().primary(),
    slug: p.string().unique(),
    name: p.string(),
    status: p.enum(TENANT_STATUSES),
    kind: p.enum(TENANT_KINDS),
    plan: p.string(),
    erpCustomerId: p.string().nullable(),
    paymentCustId: p.string().nullable(),
    trialEndsAt: p.datetime().nullable(),
    trialRemindedFor: p.datetime().nullable(),
    contractStart: p.string().columnType('date').nullable(),
    contractEnd: p.string().columnType('date').nullable(),
    salesOwner: p.string().nullable(),
    adminEmail: p.string().nullable(),
    adminName: p.string().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
