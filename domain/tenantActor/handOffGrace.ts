/**
 * Seconds the outbox relay leaves a fresh hand-off to the request that wrote it, which delivers it directly in the
 * common case; only a hand-off still undelivered after that is the relay's.
 */
export const HAND_OFF_GRACE_SECONDS = 15;
