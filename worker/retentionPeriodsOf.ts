import type { RetentionPeriods } from '../domain/retention/retainedRows.ts';
import type { Settings } from '../platform/config.ts';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** Each retained kind's period as the settings give it. */
export const retentionPeriodsOf = (
  settings: Pick<Settings, 'PORTAL_LINK_RETENTION_DAYS' | 'OUTBOX_DELIVERED_RETENTION_DAYS' | 'DIRECTORY_TOKEN_RETENTION_HOURS'>,
): RetentionPeriods => ({
  portal_links: settings.PORTAL_LINK_RETENTION_DAYS * DAY_MS,
  actor_outbox: settings.OUTBOX_DELIVERED_RETENTION_DAYS * DAY_MS,
  directory_tokens: settings.DIRECTORY_TOKEN_RETENTION_HOURS * HOUR_MS,
});
