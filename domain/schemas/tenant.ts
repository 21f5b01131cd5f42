import { z } from 'zod';
import { CalendarDate, DateTime, EmailAddress, queryInteger, Slug, Uuid } from './common.ts';
import { RoleSlug } from './roles.ts';
import { INVITATION_MAX_EXPIRY_DAYS } from './invitations.ts';
import { SignInPolicy, SignInPolicyPatch } from './signIn.ts';
import { AUDIT_RETENTION_MAX_DAYS, AUDIT_RETENTION_MIN_DAYS } from '../audit/auditRetention.ts';

export const TENANT_STATUSES = ['demo', 'trial', 'active', 'frozen', 'archived'] as const;
export const TENANT_KINDS = ['customer', 'demo'] as const;
export const TenantStatus = z.enum(TENANT_STATUSES);
export const TenantKind = z.enum(TENANT_KINDS);
export type TenantStatus = z.infer<typeof TenantStatus>;
export type TenantKind = z.infer<typeof TenantKind>;

export const TenantSettings = z
  .object({
    default_role: z.string().meta({ description: 'the role an invitation or a first SSO sign-in gives by default (MEMBER unless set)' }),
    invitation_expiry_days: z.int().meta({ description: "an invitation's days when it names none (7 unless set)" }),
    sign_in: SignInPolicy,
    audit_retention_days: z.int().optional().meta({ description: "days the tenant's audit events are kept; absent: kept forever" }),
  })
  .meta({ id: 'TenantSettings' });

export const Tenant = z
  .object({
    id: Uuid,
    slug: Slug,
    name: z.string(),
    status: TenantStatus,
    kind: TenantKind,
    plan: z.string(),
    erp_customer_id: z.string().optional(),
    payment_cust_id: z.string().optional().meta({ description: 'identifier of the customer at the payment processor' }),
    trial_ends_at: DateTime.nullable().optional(),
    contract_start: CalendarDate.nullable().optional(),
    contract_end: CalendarDate.nullable().optional(),
    sales_owner: z.string().optional(),
    settings: TenantSettings,
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'Tenant' });
export type Tenant = z.infer<typeof Tenant>;

export const TenantCreate = z
  .strictObject({
    slug: Slug,
    name: z.string().min(1).max(255),
    plan: z.string().min(1).max(100).default('starter'),
    kind: TenantKind.default('customer'),
    sales_owner: z.string().max(255).optional(),
    admin_email: EmailAddress.optional()
      .meta({ description: "the IT_ADMIN to invite (an e-mail address as the HTML standard defines one); enables identity provider provisioning" }),
    admin_name: z.string().min(1).max(255).optional(),
  })
  .meta({ id: 'TenantCreate' });
export type TenantCreate = z.infer<typeof TenantCreate>;

export const TenantCreated = z
  .object({
    tenant: Tenant,
    invite_url: z.string().optional().meta({ description: 'action-token URL; present only when provisioning succeeded' }),
  })
  .meta({ id: 'TenantCreated' });

export const TenantActivate = z
  .strictObject({
    plan: z.string().min(1).max(100).optional(),
    contract_start: CalendarDate.optional(),
    contract_end: CalendarDate.optional(),
    erp_customer_id: z.string().max(255).optional(),
  })
  .refine((b) => !b.contract_start || !b.contract_end || b.contract_start <= b.contract_end, {
    message: 'contract_end must not be before contract_start',
    path: ['contract_end'],
  })
  .meta({
    id: 'TenantActivate',
    description: 'contract_end must not be before contract_start, given in the same body or already stored (400 otherwise)',
  });
export type TenantActivate = z.infer<typeof TenantActivate>;

export const TenantCancel = z
  .strictObject({
    reason: z.string().max(1000).optional(),
    at_period_end: z.boolean().optional(),
  })
  .meta({ id: 'TenantCancel' });
export type TenantCancel = z.infer<typeof TenantCancel>;

export const SlugParams = z.object({ slug: Slug });

export const TENANT_LIST_DEFAULT_LIMIT = 50;
export const TENANT_LIST_MAX_LIMIT = 500;

export const TenantListQuery = z
  .object({
    status: TenantStatus.optional(),
    kind: TenantKind.optional(),
    plan: z.string().min(1).max(100).optional(),
    q: z.string().min(1).max(100).optional().meta({ description: 'case-insensitive prefix of the slug or the name' }),
    limit: queryInteger(1, TENANT_LIST_MAX_LIMIT).optional(),
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'must be a next_cursor of this listing').optional(),
  })
  .meta({ id: 'TenantListQuery' });
export type TenantListQuery = z.infer<typeof TenantListQuery>;

export const TenantPage = z
  .object({
    items: z.array(Tenant),
    next_cursor: z.string().optional().meta({ description: 'pass as cursor for the next (older) page; absent on the last page' }),
  })
  .meta({ id: 'TenantPage' });

export const TenantSettingsPatch = z
  .strictObject({
    default_role: RoleSlug.optional().meta({ description: 'a role the tenant has (its own or shared; 400 for any other): what an invitation or an SSO member gets by default' }),
    invitation_expiry_days: z.int().min(1).max(INVITATION_MAX_EXPIRY_DAYS).optional().meta({ description: "an invitation's days when it names none" }),
    sign_in: SignInPolicyPatch.optional(),
    audit_retention_days: z
      .int()
      .min(AUDIT_RETENTION_MIN_DAYS)
      .max(AUDIT_RETENTION_MAX_DAYS)
      .nullable()
      .optional()
      .meta({ description: `days the tenant's audit events are kept (${AUDIT_RETENTION_MIN_DAYS} to ${AUDIT_RETENTION_MAX_DAYS}); its actor removes older ones daily after appending a checkpoint. null: kept forever` }),
  })
  .meta({ id: 'TenantSettingsPatch', description: 'the settings to change; the others stay' });

export const TenantPatch = z
  .strictObject({
    settings: TenantSettingsPatch.optional(),
    name: z.string().min(1).max(255).optional(),
    plan: z.string().min(1).max(100).optional(),
    sales_owner: z.string().max(255).nullable().optional(),
    erp_customer_id: z.string().max(255).nullable().optional(),
    payment_cust_id: z.string().max(255).nullable().optional(),
    trial_ends_at: DateTime.optional().meta({ description: 'only while the tenant is in trial (409 otherwise); must be in the future' }),
  })
  .meta({ id: 'TenantPatch' });
export type TenantPatch = z.infer<typeof TenantPatch>;

export const TenantArchive = z.strictObject({ reason: z.string().max(1000).optional() }).meta({ id: 'TenantArchive' });
export type TenantArchive = z.infer<typeof TenantArchive>;
