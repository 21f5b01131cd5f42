import type { TenantKind, TenantStatus } from './schemas/tenant.ts';

export const TRIAL_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

export const addDays = (from: Date, days: number) => new Date(from.getTime() + days * DAY_MS);

/** DESIGN.md: a demo starts in `demo`; a customer starts a 14-day `trial`. */
export function initialStatus(kind: TenantKind, now: Date): { status: TenantStatus; trialEndsAt: Date | null } {
  return kind === 'demo'
    ? { status: 'demo', trialEndsAt: null }
    : { status: 'trial', trialEndsAt: addDays(now, TRIAL_DAYS) };
}

/** SPEC: activate and cancel are allowed from any state; these are the only transitions the API offers. */
export const statusAfter = (command: 'activate' | 'cancel'): TenantStatus => (command === 'activate' ? 'active' : 'frozen');

/** Statuses whose API keys verify: a frozen (cancelled, trial ended) or archived customer's products must stop. */
const KEY_USING_STATUSES: ReadonlySet<string> = new Set<TenantStatus>(['demo', 'trial', 'active']);
export const tenantMayUseApiKeys = (status: string): boolean => KEY_USING_STATUSES.has(status);

/** A frozen or archived tenant's admin portal closes: its sessions end at their next request (SPEC-EXTENSIONS §13). */
export const tenantMayUsePortal = (status: string): boolean => status !== 'frozen' && status !== 'archived';

/** A frozen or archived tenant cannot start a trial: its products must not grow while it is closed. */
export const tenantMayStartTrial = (status: string): boolean => status !== 'frozen' && status !== 'archived';
