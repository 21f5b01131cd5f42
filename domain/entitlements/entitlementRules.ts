/** The products that count for claims: enabled and not past their expiry (ms since the epoch, or null: no expiry). */
export const isEntitlementCurrent = (e: { enabled: boolean; expiresAt: number | null }, now: number): boolean =>
  e.enabled && (e.expiresAt === null || e.expiresAt > now);
