/**
 * A tenant's audit retention (SPEC-EXTENSIONS §16): `settings.audit_retention_days`, 30 to 3650 days, unset keeping
 * every event. Its actor removes the older events once a day at most: due a day after the oldest has expired, it
 * removes every event older than the retention then, so the next removal is due a day later at the soonest.
 */
export const AUDIT_RETENTION_MIN_DAYS = 30;
export const AUDIT_RETENTION_MAX_DAYS = 3650;

/** The event appended before each removal: what was removed, so the chain's break is accounted for in the chain. */
export const AUDIT_RETENTION_CHECKPOINT = 'audit.retention_checkpoint';

const DAY_MS = 86_400_000;

/** When the next removal is due: a day after the oldest retained event passed the retention. */
export const retentionDueAt = (oldest: Date, days: number): number => oldest.getTime() + (days + 1) * DAY_MS;
