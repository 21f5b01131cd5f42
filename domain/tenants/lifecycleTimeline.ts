import type { AuditAppend } from '../schemas/audit.ts';
import type { TenantProductRecord } from '../entitlements/tenantProductRecord.ts';
import type { TenantRecord } from './tenantRecord.ts';
import type { LockedTenant, TenantChange } from './tenantRepository.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A lifecycle event the tenant's actor has a timer for (times in ms since the epoch). */
export type LifecycleEvent =
  | { kind: 'trial_ending'; at: number }
  | { kind: 'trial_expired'; at: number }
  | { kind: 'entitlement_expired'; product: string; at: number };

/**
 * What is still to happen to a tenant, soonest first: while in trial, the reminder TRIAL_REMINDER_DAYS before
 * trial_ends_at (unless it was sent for that date) and the expiry itself; every entitlement expiry not yet announced
 * for its current expires_at. A reminder whose time has passed is due at once (a trial_ends_at set inside the window).
 */
export function upcomingLifecycleEvents(tenant: TenantRecord, entitlements: TenantProductRecord[], reminderDays: number): LifecycleEvent[] {
  const events: LifecycleEvent[] = [];
  const trialEnd = tenant.trialEndsAt?.getTime();
  if (tenant.status === 'trial' && trialEnd !== undefined) {
    if (tenant.trialRemindedFor?.getTime() !== trialEnd) events.push({ kind: 'trial_ending', at: trialEnd - reminderDays * DAY_MS });
    events.push({ kind: 'trial_expired', at: trialEnd });
  }
  for (const e of entitlements) {
    const at = e.expiresAt?.getTime();
    if (at !== undefined && e.expiryAnnouncedFor?.getTime() !== at) events.push({ kind: 'entitlement_expired', product: e.product, at });
  }
  return events.sort((a, b) => a.at - b.at);
}

/**
 * The lifecycle events due at `now`, applied: a trial past its end freezes the tenant (`tenant.trial_expired`; its
 * reminder no longer matters); a trial inside the reminder window reminds once per trial_ends_at
 * (`tenant.trial_ending` with the whole days left, rounded up); an entitlement past its expires_at is announced once
 * per expires_at (`entitlement.expired`). Markers on the rows make a repeat (a retried activity, a timer fired twice
 * across a worker crash) append nothing. `claimsChanged` tells the actor to push: status or current products moved.
 */
export function planDueLifecycle(tenant: LockedTenant, now: Date, reminderDays: number): TenantChange<{ applied: LifecycleEvent[]; claimsChanged: boolean }> {
  const due = upcomingLifecycleEvents(tenant, tenant.entitlements, reminderDays).filter((e) => e.at <= now.getTime());
  const expired = due.some((e) => e.kind === 'trial_expired');
  const applied = due.filter((e) => !(expired && e.kind === 'trial_ending'));
  const base = { tenant_id: tenant.id, target_id: tenant.id, target_type: 'tenant', target_name: tenant.slug };
  const events: AuditAppend[] = [];
  const update: Partial<TenantRecord> = {};
  const putEntitlements: TenantProductRecord[] = [];
  for (const event of applied) {
    if (event.kind === 'trial_expired') {
      Object.assign(update, { status: 'frozen', updatedAt: now });
      events.push({ ...base, action: 'tenant.trial_expired', metadata: { from: 'trial', to: 'frozen', trial_ends_at: tenant.trialEndsAt!.toISOString() } });
    } else if (event.kind === 'trial_ending') {
      update.trialRemindedFor = tenant.trialEndsAt;
      const daysLeft = Math.max(0, Math.ceil((tenant.trialEndsAt!.getTime() - now.getTime()) / DAY_MS));
      events.push({ ...base, action: 'tenant.trial_ending', metadata: { days_left: daysLeft, trial_ends_at: tenant.trialEndsAt!.toISOString() } });
    } else {
      const entitlement = tenant.entitlements.find((e) => e.product === event.product)!;
      putEntitlements.push({ ...entitlement, expiryAnnouncedFor: entitlement.expiresAt });
      events.push({ ...base, action: 'entitlement.expired', product: event.product, metadata: { product: event.product, expires_at: entitlement.expiresAt!.toISOString() } });
    }
  }
  const claimsChanged = expired || applied.some((e) => e.kind === 'entitlement_expired' && tenant.entitlements.find((x) => x.product === e.product)!.enabled);
  return {
    ...(Object.keys(update).length ? { update } : {}),
    ...(putEntitlements.length ? { putEntitlements } : {}),
    events,
    pushClaims: false,
    result: { applied, claimsChanged },
  };
}
