/** A session ends after this long without a request (SPEC-EXTENSIONS §11: 30 minutes idle). */
export const PORTAL_IDLE_MS = 30 * 60_000;
/** A session ends this long after it was opened, however busy (SPEC-EXTENSIONS §13: 8 hours). */
export const PORTAL_LIFETIME_MS = 8 * 60 * 60_000;
