import type { TenantReach } from '../access/tenantReach.ts';
import { boundTo } from '../access/tenantReach.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { PortalLinkRefusal } from './portalRepository.ts';
import type { PortalSessionRecord } from './portalRecords.ts';
import { newPortalSecret, portalSecretHash } from './portalSecret.ts';

/** A session ends after this long without a request (SPEC-EXTENSIONS §11: 30 minutes idle). */
export const PORTAL_IDLE_MS = 30 * 60_000;
/** A session's last use is written at most this often (a page and its stylesheet are one use). */
const TOUCH_EVERY_MS = 60_000;

/** Who a portal session's changes are by: the session itself, with the link's creator named in every event. */
export function portalActor(session: PortalSessionRecord, request: Pick<RequestMeta, 'sourceIp' | 'userAgent'> = {}): RequestMeta {
  return {
    ...request,
    actorId: `portal:${session.id}`,
    actorType: 'portal',
    recordedBy: `portal:${session.id}`,
    auditMetadata: { portal: { session_id: session.id, link_created_by: session.createdBy, intent: session.intent } },
  };
}

/** What a portal session may touch: its own tenant and nothing else, whatever a URL or a form names. */
export const portalReach = (session: PortalSessionRecord): TenantReach => boundTo([session.tenantId]);

/**
 * Opens the link whose secret is `token`, once, within its minutes: a new session (`portal.link_opened`) and the
 * secret its cookie holds; or why it does not open.
 */
export async function openPortalLink(
  { stores }: RegistryContext,
  token: string,
  request: Pick<RequestMeta, 'sourceIp' | 'userAgent'>,
): Promise<{ refused: PortalLinkRefusal } | { session: PortalSessionRecord; cookie: string }> {
  const { secret, hash } = newPortalSecret();
  const csrf = newPortalSecret().secret;
  let opened: PortalSessionRecord | undefined;
  const result = await stores.portal.openLink(portalSecretHash(token), request, (link, now) => {
    if (!link) return { refused: 'unknown' };
    if (link.usedAt) return { refused: 'used' };
    if (link.expiresAt.getTime() <= now.getTime()) return { refused: 'expired' };
    opened = { id: crypto.randomUUID(), linkId: link.id, tenantId: link.tenantId, intent: link.intent, sessionHash: hash, csrfToken: csrf, createdBy: link.createdBy, returnUrl: link.returnUrl, lastSeenAt: now, createdAt: now };
    return {
      session: opened,
      event: { action: 'portal.link_opened', tenant_id: link.tenantId, target_id: link.id, target_type: 'portal_link', actor_id: `portal:${opened.id}`, actor_type: 'portal', metadata: { intent: link.intent, link_created_by: link.createdBy } },
    };
  });
  return 'refused' in result ? result : { session: result.session, cookie: secret };
}

/** The session a cookie holds, while it has been used within PORTAL_IDLE_MS; its idle time starts again. */
export async function portalSessionOf({ stores }: RegistryContext, cookie: string | undefined, now = new Date()): Promise<PortalSessionRecord | 'expired' | undefined> {
  if (!cookie || cookie.length > 200) return undefined;
  const session = await stores.portal.findSession(portalSecretHash(cookie));
  if (!session) return undefined;
  if (now.getTime() - session.lastSeenAt.getTime() > PORTAL_IDLE_MS) {
    await stores.portal.endSession(session.id);
    return 'expired';
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await stores.portal.touchSession(session.id, now);
  return session;
}
