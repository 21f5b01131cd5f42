import { randomBytes } from 'node:crypto';

/** A link's secret: 32 random bytes, base64url. Every send makes a new one, so the links sent before stop working. */
export const newLinkNonce = (): string => randomBytes(32).toString('base64url');

/** How many sends of one invitation are allowed in the window, and the window (SPEC-EXTENSIONS §8: 3 per 10 minutes). */
export const SENDS_PER_WINDOW = 3;
export const SEND_WINDOW_MS = 10 * 60_000;

/** The sends still counted at `now` by the resend limit, oldest first. */
export const sendsInWindow = (sends: readonly Date[], now: Date): Date[] => sends.filter((sent) => now.getTime() - sent.getTime() < SEND_WINDOW_MS);
