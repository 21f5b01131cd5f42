import type { TenantReach } from '../access/tenantReach.ts';
import { tenantMayUsePortal } from '../tenantLifecycle.ts';
import type { TenantRecord } from '../tenants/tenantRecord.ts';
import { boundTo } from '../access/tenantReach.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { PortalLinkRefusal } from './portalRepository.ts';
import type { PortalSessionRecord } from './portalRecords.ts';
import { newPortalSecret, portalSecretHash } from './portalSecret.ts';
import { PORTAL_IDLE_MS, PORTAL_LIFETIME_MS } from './portalSessionLimits.ts';

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

/** Why a session ended: unused for PORTAL_IDLE_MS, opened PORTAL_LIFETIME_MS ago, or its tenant is frozen or archived. */
export type PortalSessionEnd = 'idle' | 'lifetime' | 'tenant_closed';

/** The rule of a session's life, judged at each request: undefined while it lives, else why it ended. */
export function portalSessionEnd(session: Pick<PortalSessionRecord, 'createdAt' | 'lastSeenAt'>, tenantStatus: string, now: Date): PortalSessionEnd | undefined {
  if (now.getTime() - session.createdAt.getTime() >= PORTAL_LIFETIME_MS) return 'lifetime';
  if (now.getTime() - session.lastSeenAt.getTime() > PORTAL_IDLE_MS) return 'idle';
  if (!tenantMayUsePortal(tenantStatus)) return 'tenant_closed';
  return undefined;
}

/**
 * The session a cookie holds and its tenant, while the session lives (portalSessionEnd); its idle time starts again.
 * The tenant is read from the store at every request, not from a cache, so a freeze or an archive ends the session
 * at its next request. An ended session is deleted: a tenant reactivated later does not bring it back.
 */
export async function portalSessionOf(
  { stores }: RegistryContext,
  cookie: string | undefined,
  now = new Date(),
): Promise<{ session: PortalSessionRecord; tenant: TenantRecord } | { ended: PortalSessionEnd } | undefined> {
  if (!cookie || cookie.length > 200) return undefined;
  const session = await stores.portal.findSession(portalSecretHash(cookie));
  if (!session) return undefined;
  const tenant = await stores.tenants.find({ by: 'id', id: session.tenantId });
  // A tenant that is gone closes its sessions as an archived one does.
  const ended = tenant ? portalSessionEnd(session, tenant.status, now) : 'tenant_closed';
  if (ended || !tenant) {
    await stores.portal.endSession(session.id);
    return { ended: ended ?? 'tenant_closed' };
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) await stores.portal.touchSession(session.id, now);
  return { session, tenant };
}
