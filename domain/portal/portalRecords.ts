import type { PortalIntent } from './portalIntent.ts';

/** A link handed to a tenant's IT admin: single use, for minutes; only its secret's SHA-256 is kept. */
export interface PortalLinkRecord {
  id: string;
  tenantId: string;
  intent: PortalIntent;
  tokenHash: Buffer;
  returnUrl: string | null;
  /** Who made the link (the caller's actor id): named on every change its session makes. */
  createdBy: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}

/** The session an opened link started, held by an HttpOnly cookie whose value's SHA-256 is kept. */
export interface PortalSessionRecord {
  id: string;
  linkId: string;
  tenantId: string;
  intent: PortalIntent;
  sessionHash: Buffer;
  /** The synchronizer token every form of the session carries. */
  csrfToken: string;
  createdBy: string;
  returnUrl: string | null;
  lastSeenAt: Date;
  createdAt: Date;
}
