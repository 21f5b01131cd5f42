import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { PortalIntent } from './portalIntent.ts';
import type { PortalLinkRecord } from './portalRecords.ts';
import { newPortalSecret } from './portalSecret.ts';

/** How long a link opens a session (SPEC-EXTENSIONS §11). */
export const PORTAL_LINK_TTL_MS = 5 * 60_000;

/**
 * A single-use link for the tenant's IT admin (`portal.link_created`): `{base}/portal/open?token=…`. The secret is
 * answered once and kept only as its SHA-256.
 */
export async function createPortalLink(
  { stores }: RegistryContext,
  tenantId: string,
  body: { intent: PortalIntent; return_url?: string | undefined },
  meta: RequestMeta,
  baseUrl: string,
): Promise<{ url: string; expires_at: string; intent: PortalIntent }> {
  const { secret, hash } = newPortalSecret();
  const now = new Date();
  const link: PortalLinkRecord = {
    id: crypto.randomUUID(),
    tenantId,
    intent: body.intent,
    tokenHash: hash,
    returnUrl: body.return_url ?? null,
    createdBy: meta.actorId ?? meta.recordedBy ?? 'unknown',
    expiresAt: new Date(now.getTime() + PORTAL_LINK_TTL_MS),
    usedAt: null,
    createdAt: now,
  };
  const written = await stores.portal.createLink(link, {
    action: 'portal.link_created',
    tenant_id: tenantId,
    target_id: link.id,
    target_type: 'portal_link',
    metadata: { intent: link.intent, expires_at: link.expiresAt.toISOString(), ...(link.returnUrl ? { return_url: link.returnUrl } : {}) },
  }, meta);
  if (!written) throw notFound('tenant');
  return { url: `${baseUrl}/portal/open?token=${secret}`, expires_at: link.expiresAt.toISOString(), intent: link.intent };
}
