import type { TenantChange } from '../domain/tenants/tenantRepository.ts';
import type { TenantRecord } from '../domain/tenants/tenantRecord.ts';
import type { RequestMeta } from '../domain/requestMeta.ts';
import type { OutboxCommand } from '../domain/tenantActor/tenantActorCommand.ts';
import { HAND_OFF_DUE_SQL } from './postgresActorOutbox.ts';
import { AUDIT_INSERT_COLUMNS, AUDIT_INSERT_TYPES, auditInsertValues } from './auditEventInsert.ts';

/** Each field of a tenant record and its column, for the update of a change. */
const TENANT_COLUMN_OF: { readonly [F in keyof TenantRecord]: string } = {
  id: 'id',
  slug: 'slug',
  name: 'name',
  status: 'status',
  kind: 'kind',
  plan: 'plan',
  erpCustomerId: 'erp_customer_id',
  paymentCustId: 'payment_cust_id',
  trialEndsAt: 'trial_ends_at',
  trialRemindedFor: 'trial_reminded_for',
  contractStart: 'contract_start',
  contractEnd: 'contract_end',
  salesOwner: 'sales_owner',
  adminEmail: 'admin_email',
  adminName: 'admin_name',
  settings: 'settings',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const COLUMN_BIT = Object.fromEntries(Object.keys(TENANT_COLUMN_OF).map((field, bit) => [field, bit])) as Record<keyof TenantRecord, number>;

export const TENANT_PRODUCT_COLUMNS = 'tenant_id, product, enabled, config, expires_at, expiry_announced_for, created_at, updated_at';
const TENANT_PRODUCT_TYPES = ['uuid', 'text', 'boolean', 'jsonb', 'timestamptz', 'timestamptz', 'timestamptz', 'timestamptz'];

export interface TenantChangeWriteStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * A decided change as one statement, guarded by the version (`xmin`) of the tenant row it was decided on: the row is
 * updated only if no other change wrote it since, and every other write of the statement (entitlements, events, the
 * actor's hand-off) reads from that update, so a lost race writes nothing and answers `written` 0. A change without
 * fields still rewrites `updated_at` with itself, which gives the row a new version: entitlements are written by
 * changes alone, so the tenant's version covers them too. Named by its shape (fields, counts of entitlements and
 * events, a hand-off), which the change's kinds bound.
 */
export function tenantChangeWrite(id: string, version: string, change: TenantChange<unknown>, handOff: OutboxCommand | undefined, meta: RequestMeta): TenantChangeWriteStatement {
  const values: unknown[] = [id, version];
  const param = (value: unknown, type?: string) => `$${values.push(value)}${type ? `::${type}` : ''}`;
  // In the record's order, whatever order the rule set them in: one statement a set of fields.
  const fields = (Object.keys(TENANT_COLUMN_OF) as (keyof TenantRecord)[]).filter((field) => change.update?.[field] !== undefined).map((field) => [field, change.update![field]] as const);
  const assignments = fields.length > 0 ? fields.map(([field, value]) => `${TENANT_COLUMN_OF[field]} = ${param(value)}`) : ['updated_at = updated_at'];
  const parts = [`tenant as (update tenants set ${assignments.join(', ')} where id = $1 and xmin = $2::text::xid returning id)`];
  const shape = [`f${fields.reduce((mask, [field]) => mask | (1 << COLUMN_BIT[field]), 0).toString(16)}`];

  const puts = change.putEntitlements ?? [];
  if (puts.length > 0) {
    const rows = puts.map((put) => {
      const row = [put.tenantId, put.product, put.enabled, JSON.stringify(put.config), put.expiresAt, put.expiryAnnouncedFor, put.createdAt, put.updatedAt];
      return `(${row.map((value, i) => param(value, TENANT_PRODUCT_TYPES[i])).join(', ')})`;
    });
    parts.push(`put as (insert into tenant_products (${TENANT_PRODUCT_COLUMNS})
      select v.* from (values ${rows.join(', ')}) as v where exists (select from tenant)
      on conflict (tenant_id, product) do update set enabled = excluded.enabled, config = excluded.config,
        expires_at = excluded.expires_at, expiry_announced_for = excluded.expiry_announced_for,
        created_at = excluded.created_at, updated_at = excluded.updated_at)`);
    shape.push(`p${puts.length}`);
  }
  if (change.removeEntitlement !== undefined) {
    parts.push(`removed as (delete from tenant_products where tenant_id = $1 and product = ${param(change.removeEntitlement)} and exists (select from tenant))`);
    shape.push('r');
  }
  const events = change.events ?? [];
  if (events.length > 0) {
    // One insert for all of them: the chain trigger draws ids in the order of its rows.
    const rows = events.map((event) => `(${auditInsertValues(event, meta).map((value, i) => param(value, AUDIT_INSERT_TYPES[i])).join(', ')})`);
    parts.push(`event as (insert into audit_events (${AUDIT_INSERT_COLUMNS}) select v.* from (values ${rows.join(', ')}) as v where exists (select from tenant))`);
    shape.push(`e${events.length}`);
  }
  if (handOff !== undefined) {
    parts.push(`hand_off as (insert into tenant_actor_outbox (tenant_id, payload, next_attempt_at)
      select id, ${param(JSON.stringify(handOff), 'jsonb')}, ${HAND_OFF_DUE_SQL} from tenant returning id)`);
    shape.push('h');
  }
  const handOffId = handOff === undefined ? 'null::bigint' : '(select id from hand_off)';
  return {
    name: `tenant_change_${shape.join('_')}`,
    text: `with ${parts.join(',\n')}\nselect (select count(*) from tenant)::int as written, ${handOffId} as command_id`,
    values,
  };
}
