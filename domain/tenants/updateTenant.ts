import { conflict, invalidInput, notFound } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { TenantPatch } from '../schemas/tenant.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { LockedTenant, TenantChange } from './tenantRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { tenantChangeEffects } from '../changeEffects/tenantChangeEffects.ts';
import { tenantSettingsOf, type StoredTenantSettings } from './tenantSettings.ts';
import { signInPolicyOf, type StoredSignInPolicy } from '../signIn/signInPolicy.ts';
import type { SignInPolicyPatch } from '../schemas/signIn.ts';
import { requireDefaultRoleFit } from '../roles/defaultRoleRule.ts';

const FIELDS = {
  name: 'name',
  plan: 'plan',
  sales_owner: 'salesOwner',
  erp_customer_id: 'erpCustomerId',
  payment_cust_id: 'paymentCustId',
  trial_ends_at: 'trialEndsAt',
} as const satisfies Record<Exclude<keyof TenantPatch, 'settings'>, keyof TenantRecord>;

const shown = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

/**
 * The PATCH rule: the given fields replace the stored ones (null clears an optional one). `trial_ends_at` moves only
 * a tenant in trial (a conflict otherwise) and only into the future. The event lists each changed field's old and
 * new value; a PATCH that changes nothing writes nothing. A new plan (a claim) or trial end (a timer) wakes the actor.
 */
export function planTenantUpdate(tenant: LockedTenant, patch: TenantPatch, now: Date): TenantChange<TenantRecord> {
  if (patch.trial_ends_at !== undefined) {
    if (tenant.status !== 'trial') throw conflict(`tenant is ${tenant.status}; only a tenant in trial has a trial_ends_at to change`);
    if (new Date(patch.trial_ends_at) <= now) throw invalidInput('trial_ends_at must be in the future');
  }
  const update: Partial<TenantRecord> = {};
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const [field, property] of Object.entries(FIELDS) as [Exclude<keyof TenantPatch, 'settings'>, keyof TenantRecord][]) {
    const given = patch[field];
    if (given === undefined) continue;
    const value = field === 'trial_ends_at' ? new Date(given as string) : given;
    if (shown(value) === shown(tenant[property])) continue;
    (update as Record<string, unknown>)[property] = value;
    changes[field] = { old: shown(tenant[property]), new: shown(value) };
  }
  if (patch.settings) {
    // The settings given replace those stored; the others stay. A setting given as its default is stored all the same.
    const { sign_in: signIn, ...others } = patch.settings;
    const settings = { ...tenant.settings, ...definedOf(others), ...(signIn ? { sign_in: signInPolicyAfter(tenant.settings.sign_in, signIn) } : {}) };
    if (JSON.stringify(settings) !== JSON.stringify(tenant.settings)) {
      update.settings = settings;
      changes.settings = { old: tenantSettingsOf(tenant.settings), new: tenantSettingsOf(settings) };
    }
  }
  const after: TenantRecord = { ...tenant, ...update };
  if (Object.keys(changes).length === 0) return { pushClaims: false, result: after };
  update.updatedAt = now;
  after.updatedAt = now;
  return {
    update,
    events: [{ action: 'tenant.updated', tenant_id: tenant.id, target_id: tenant.id, target_type: 'tenant', target_name: tenant.slug, metadata: { changes } }],
    // A new trial end or retention moves the actor's timers: the hand-off that carries a push also refreshes its timeline.
    // A new sign-in policy is pushed too: the users' attributes carry it for the extension's fallback.
    pushClaims:
      'plan' in changes ||
      'trial_ends_at' in changes ||
      signInChanged(tenant.settings, update.settings) ||
      (update.settings !== undefined && (update.settings.audit_retention_days ?? null) !== (tenant.settings.audit_retention_days ?? null)),
    result: after,
  };
}

/** The sign-in policy's fields given replace the stored ones; null removes session_max_hours. */
function signInPolicyAfter(stored: StoredSignInPolicy | undefined, patch: SignInPolicyPatch): StoredSignInPolicy {
  const { session_max_hours: hours, ...rest } = patch;
  const after: StoredSignInPolicy = { ...stored, ...definedOf(rest) };
  if (hours === null) delete after.session_max_hours;
  else if (hours !== undefined) after.session_max_hours = hours;
  return after;
}

const signInChanged = (before: StoredTenantSettings, after: StoredTenantSettings | undefined): boolean =>
  after !== undefined && JSON.stringify(signInPolicyOf(before.sign_in)) !== JSON.stringify(signInPolicyOf(after.sign_in));

/** The keys given a value. */
const definedOf = <T extends object>(value: T): Partial<T> => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** A default role must be one the tenant has, its own or a shared one, that does not administer the tenant (400 otherwise). */
async function requireTenantRole(roles: RegistryContext['stores']['roles'], tenantId: string, slug: string): Promise<void> {
  const known = await roles.listRoles(tenantId);
  if (known === undefined) throw notFound('tenant');
  const role = known.find((r) => r.slug === slug);
  if (!role) throw invalidInput(`settings.default_role: unknown role for this tenant: ${slug}`);
  requireDefaultRoleFit(role);
}

export async function updateTenant({ stores, effects }: RegistryContext, id: string, patch: TenantPatch, meta: RequestMeta): Promise<TenantRecord> {
  if (patch.settings?.default_role !== undefined) await requireTenantRole(stores.roles, id, patch.settings.default_role);
  const changed = await stores.tenants.change(id, meta, (tenant, now) => planTenantUpdate(tenant, patch, now));
  if (!changed) throw notFound('tenant');
  effects.follow(tenantChangeEffects(id, changed));
  return changed.result;
}
