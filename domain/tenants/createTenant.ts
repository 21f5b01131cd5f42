import { randomUUID } from 'node:crypto';
import type { TenantRecord } from '../entities/tenantEntity.ts';
import { conflict } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantCreate } from '../schemas/tenant.ts';
import type { Sql } from '../sql.ts';
import { initialStatus } from '../tenantLifecycle.ts';
import { AUDIT_INSERT_COLUMNS, auditInsertValues } from '../audit/appendAuditEvent.ts';

export interface CreatedTenant {
  tenant: TenantRecord;
  /** The outbox entry of the provisioning hand-off, when admin_email was given. */
  provisioningCommandId?: number;
}

/** Seconds the outbox relay leaves a fresh hand-off to the request that wrote it (as enqueueActorCommand). */
const HAND_OFF_GRACE_SECONDS = 15;

const INSERT_TENANT_WITH_EVENT_AND_HAND_OFF = `
  with tenant as (
    insert into tenants (id, slug, name, status, kind, plan, trial_ends_at, sales_owner, admin_email, admin_name, created_at, updated_at)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
  ), event as (
    insert into audit_events (${AUDIT_INSERT_COLUMNS})
    values ($12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
  ), hand_off as (
    insert into tenant_actor_outbox (tenant_id, command, next_attempt_at)
    select $1, 'provision', now() + make_interval(secs => ${HAND_OFF_GRACE_SECONDS}) where $9::text is not null
    returning id
  )
  select (select id from hand_off) as command_id`;

/**
 * Inserts the tenant, its `tenant.created` event and (with admin_email) the provisioning hand-off as one statement,
 * so one round trip and one commit: once committed, neither the tenant nor its provisioning can be lost, and a
 * failure anywhere leaves none of the three. A taken slug is a conflict.
 */
export async function createTenant(sql: Sql, input: TenantCreate, meta: RequestMeta): Promise<CreatedTenant> {
  const now = new Date();
  const { status, trialEndsAt } = initialStatus(input.kind, now);
  const tenant = {
    id: randomUUID(),
    slug: input.slug,
    name: input.name,
    status,
    kind: input.kind,
    plan: input.plan,
    trialEndsAt,
    salesOwner: input.sales_owner ?? null,
    adminEmail: input.admin_email?.toLowerCase() ?? null,
    adminName: input.admin_name ?? null,
    erpCustomerId: null,
    paymentCustId: null,
    contractStart: null,
    contractEnd: null,
    createdAt: now,
    updatedAt: now,
  } as TenantRecord;
  const event = auditInsertValues(
    {
      action: 'tenant.created',
      tenant_id: tenant.id,
      target_id: tenant.id,
      target_type: 'tenant',
      target_name: tenant.slug,
      metadata: { kind: tenant.kind, plan: tenant.plan, status, admin_email: tenant.adminEmail ?? undefined },
    },
    meta,
  );
  try {
    const { rows } = await sql.query<{ command_id: string | null }>({
      name: 'create_tenant',
      text: INSERT_TENANT_WITH_EVENT_AND_HAND_OFF,
      values: [
        tenant.id, tenant.slug, tenant.name, tenant.status, tenant.kind, tenant.plan, tenant.trialEndsAt, tenant.salesOwner,
        tenant.adminEmail, tenant.adminName, now, ...event,
      ],
    });
    const commandId = rows[0]?.command_id;
    return commandId == null ? { tenant } : { tenant, provisioningCommandId: Number(commandId) };
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw conflict(`a tenant with slug "${input.slug}" already exists`);
    throw error;
  }
}
