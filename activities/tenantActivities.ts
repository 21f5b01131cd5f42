import { ApplicationFailure, log } from '@temporalio/activity';
import type { Orm } from '../store/orm.ts';
import { AUDIT_INSERT_COLUMNS, auditInsertValues } from '../domain/audit/appendAuditEvent.ts';
import { claimsOfSnapshot } from '../domain/claims/resolveClaims.ts';
import { SYSTEM_ACTOR } from '../domain/requestMeta.ts';
import { loadTenantSnapshot } from '../domain/tenants/tenantSnapshot.ts';
import { nativePool } from '../store/nativePool.ts';
import { IdpError, type IdentityProvider, type TenantRef } from './idp/identityProvider.ts';

export interface TenantForProvisioning {
  tenantId: string;
  slug: string;
  name: string;
  adminEmail: string | null;
  adminName: string | null;
}

export type RecordedOutcome =
  | { status: 'succeeded'; inviteUrl: string }
  | { status: 'failed'; kind: string; step: string; message: string };

/**
 * Provider errors become ApplicationFailures typed by their kind: the workflow's retry policy retries only
 * `unavailable`; the other kinds are listed as non-retryable there and flagged so here as well.
 */
async function asActivityFailure<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof IdpError) {
      throw ApplicationFailure.create({ type: error.kind, message: error.message, nonRetryable: error.kind !== 'unavailable' });
    }
    throw error;
  }
}

/** The side effects of a tenant's actor: the registry's database and the identity provider. */
export function createTenantActivities(deps: { orm: Orm; idp: IdentityProvider }) {
  const { orm, idp } = deps;
  return {
    async loadTenantForProvisioning(tenantId: string): Promise<TenantForProvisioning> {
      const { rows } = await (await nativePool(orm)).query<{ id: string; slug: string; name: string; admin_email: string | null; admin_name: string | null }>({
        name: 'tenant_for_provisioning',
        text: 'select id, slug, name, admin_email, admin_name from tenants where id = $1',
        values: [tenantId],
      });
      const tenant = rows[0];
      if (!tenant) throw ApplicationFailure.create({ type: 'tenant_not_found', message: `tenant ${tenantId} not found`, nonRetryable: true });
      return { tenantId: tenant.id, slug: tenant.slug, name: tenant.name, adminEmail: tenant.admin_email, adminName: tenant.admin_name };
    },

    ensureOrganization: (tenant: TenantRef) => asActivityFailure(() => idp.ensureOrganization(tenant)),
    ensureUser: (tenant: TenantRef, email: string, name: string | undefined) => asActivityFailure(() => idp.ensureUser(tenant, email, name)),
    ensureMembership: (organizationId: string, userId: string) => asActivityFailure(() => idp.ensureMembership(organizationId, userId)),
    sendInvite: (userId: string) => asActivityFailure(() => idp.sendInvite(userId)),

    /** Pushes the tenant's current bundle to every member; users keep their own org_roles. */
    async pushTenantClaims(tenantId: string): Promise<{ users: number }> {
      const tenant = await loadTenantSnapshot(await nativePool(orm), { by: 'id', id: tenantId });
      if (!tenant) return { users: 0 };
      const { org_roles: _userOwned, ...claims } = claimsOfSnapshot(tenant, [], Date.now());
      const userIds = await asActivityFailure(() => idp.listTenantUserIds(tenantId));
      for (const userId of userIds) await asActivityFailure(() => idp.pushClaims(userId, claims));
      log.info('pushed claims', { tenantId, users: userIds.length });
      return { users: userIds.length };
    },

    /**
     * Appends idp.invite_sent or idp.provision_failed. `outcomeId` makes it idempotent: an activity retried after
     * its insert committed does not append the event twice.
     */
    async recordProvisioningOutcome(tenantId: string, outcome: RecordedOutcome, outcomeId: string, resend = false): Promise<void> {
      const metadata: Record<string, unknown> = { outcome_id: outcomeId, resend };
      if (outcome.status === 'failed') Object.assign(metadata, { kind: outcome.kind, step: outcome.step, message: outcome.message });
      const values = auditInsertValues(
        {
          action: outcome.status === 'succeeded' ? 'idp.invite_sent' : 'idp.provision_failed',
          tenant_id: tenantId,
          target_id: tenantId,
          target_type: 'tenant',
          metadata,
        },
        SYSTEM_ACTOR,
      );
      // One statement: the event is appended unless an earlier attempt already appended it.
      await (await nativePool(orm)).query({
        name: 'record_provisioning_outcome',
        text: `insert into audit_events (${AUDIT_INSERT_COLUMNS})
               select $1::text, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
                      $11::jsonb, $12::text, $13::text
                where not exists (select 1 from audit_events where tenant_id = $2 and action in ('idp.invite_sent', 'idp.provision_failed')
                                     and metadata->>'outcome_id' = $14)`,
        values: [...values, outcomeId],
      });
    },
  };
}

export type TenantActivities = ReturnType<typeof createTenantActivities>;
