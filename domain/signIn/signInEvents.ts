import type { AuditAppend } from '../schemas/audit.ts';
import type { SignInRefusal } from './signInDecision.ts';

/** Where the claims path hands a sign-in's event, without waiting: its key and window say when a repeat is the same event. */
export type SignInEventSink = (key: string, windowMs: number, event: AuditAppend) => void;

/** A refusal repeated within this window (a refresh retried in a loop) is one event. */
export const REFUSAL_WINDOW_MS = 60_000;

/** A break-glass session's tokens within this window are its one sign-in: keyed by its auth_time, they are one event. */
export const BREAK_GLASS_WINDOW_MS = 24 * 3_600_000;

/** What the events say of the sign-in: whose, for which client, through which provider. */
export interface SignInSubject {
  tenantId: string;
  userId: string;
  clientId: string;
  product: string | undefined;
  identityProvider: string | undefined;
  authTime: number | undefined;
}

const of = (subject: SignInSubject) => ({
  user_id: subject.userId,
  client_id: subject.clientId,
  ...(subject.product !== undefined ? { product: subject.product } : {}),
  ...(subject.identityProvider !== undefined ? { identity_provider: subject.identityProvider } : {}),
  ...(subject.authTime !== undefined ? { auth_time: subject.authTime } : {}),
});

/** `sign_in.refused` in the tenant's log, with the reason, targeting the user. */
export function signInRefusedEvent(subject: SignInSubject, reason: SignInRefusal): AuditAppend {
  return {
    action: 'sign_in.refused',
    tenant_id: subject.tenantId,
    target_id: subject.userId,
    target_type: 'user',
    ...(subject.product !== undefined ? { product: subject.product } : {}),
    metadata: { reason, ...of(subject) },
  };
}

/** `member.break_glass_used`: a break-glass member signed in without the tenant's required SSO. */
export function breakGlassUsedEvent(subject: SignInSubject): AuditAppend {
  return {
    action: 'member.break_glass_used',
    tenant_id: subject.tenantId,
    target_id: subject.userId,
    target_type: 'member',
    ...(subject.product !== undefined ? { product: subject.product } : {}),
    metadata: of(subject),
  };
}

export const refusalKey = (subject: SignInSubject, reason: SignInRefusal): string =>
  `refused ${subject.tenantId} ${subject.userId} ${subject.clientId} ${reason} ${subject.authTime ?? ''}`;

export const breakGlassKey = (subject: SignInSubject): string => `break-glass ${subject.tenantId} ${subject.userId} ${subject.authTime ?? ''}`;
