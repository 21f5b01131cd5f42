import { log } from '@temporalio/activity';
import { checkDomain } from '../../domain/domains/verifyDomain.ts';
import { planExpiry } from '../../domain/invitations/expireInvitation.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { planDueLifecycle, upcomingLifecycleEvents, type LifecycleEvent } from '../../domain/tenants/lifecycleTimeline.ts';
import type { ActorActivityContext } from './actorActivityContext.ts';
import { applyDueSamlEvents, samlTimelineEvents, type SamlTimelineEvent } from './samlTimeline.ts';
import { retentionDueAt } from '../../domain/audit/auditRetention.ts';

/**
 * An event on the actor's timeline: the tenant's lifecycle, the expiry of each pending invitation, each domain's next
 * look-up, its SAML connections' readings and notices, the next removal of the audit events its retention expired.
 */
export type ActorTimelineEvent =
  | LifecycleEvent
  | SamlTimelineEvent
  | { kind: 'invitation_expired'; invitationId: string; at: number }
  | { kind: 'domain_check'; domainId: string; at: number }
  | { kind: 'audit_retention'; at: number };

/** The tenant's status and what is still to happen to it, soonest first (the actor sets its timer from it). */
async function loadTenantTimeline(context: ActorActivityContext, tenantId: string): Promise<{ status: string | null; upcoming: ActorTimelineEvent[] }> {
  const { stores, domainChecks, reminderDays } = context;
  const tenant = await stores.tenants.find({ by: 'id', id: tenantId });
  if (!tenant) return { status: null, upcoming: [] };
  const lifecycle = upcomingLifecycleEvents(tenant, (await stores.tenants.entitlementsOf(tenantId)) ?? [], reminderDays);
  const invitations = ((await stores.invitations?.pendingExpiries(tenantId)) ?? []).map(
    ({ id, expiresAt }): ActorTimelineEvent => ({ kind: 'invitation_expired', invitationId: id, at: expiresAt.getTime() }),
  );
  const domains = domainChecks
    ? ((await stores.domains?.nextChecks(tenantId)) ?? []).map(({ id, at }): ActorTimelineEvent => ({ kind: 'domain_check', domainId: id, at: at.getTime() }))
    : [];
  const saml = await samlTimelineEvents(context, tenantId);
  const days = tenant.settings.audit_retention_days;
  const oldest = typeof days === 'number' ? await stores.audit.oldestRetainedAt(tenantId) : undefined;
  const retention: ActorTimelineEvent[] = oldest && typeof days === 'number' ? [{ kind: 'audit_retention', at: retentionDueAt(oldest, days) }] : [];
  return { status: tenant.status, upcoming: [...lifecycle, ...invitations, ...domains, ...saml, ...retention].sort((a, b) => a.at - b.at) };
}

/**
 * Applies the lifecycle events due at `asOf` (the workflow's time, so a test that skips time is judged by it):
 * idempotent, a repeat appends nothing (see planDueLifecycle).
 */
async function applyDueLifecycle(
  context: ActorActivityContext,
  tenantId: string,
  asOf: number,
): Promise<{ applied: LifecycleEvent[]; claimsChanged: boolean; membersRemoved: string[]; domainsChanged: boolean; ssoChanged: string[] }> {
  const changed = await context.stores.tenants.change(tenantId, SYSTEM_ACTOR, (tenant) => planDueLifecycle(tenant, new Date(asOf), context.reminderDays));
  const membersRemoved = await expireDueInvitations(context, tenantId, asOf);
  const domainsChanged = await checkDueDomains(context, tenantId, asOf);
  const ssoChanged = await applyDueSamlEvents(context, tenantId, asOf);
  await removeExpiredEvents(context, tenantId, asOf);
  return { ...(changed?.result ?? { applied: [], claimsChanged: false }), membersRemoved, domainsChanged, ssoChanged };
}

/**
 * Expires the tenant's pending invitations whose time has come at `asOf` (invitation.expired, their links closed,
 * their pending members removed): answers the users whose membership the actor now takes out of the organization.
 * A repeat finds them expired already and does nothing.
 */
async function expireDueInvitations({ stores }: ActorActivityContext, tenantId: string, asOf: number): Promise<string[]> {
  const invitations = stores.invitations;
  if (!invitations) return [];
  const removed: string[] = [];
  for (const { id, expiresAt } of await invitations.pendingExpiries(tenantId)) {
    if (expiresAt.getTime() > asOf) break;
    const written = await invitations.change({ by: 'id', id }, SYSTEM_ACTOR, [], planExpiry(new Date(asOf)));
    const sync = written?.memberSync;
    if (sync?.command.kind === 'syncMember') removed.push(sync.command.user_id);
    if (written?.result) log.info('invitation expired', { tenantId, invitationId: id });
  }
  return removed;
}

/**
 * Looks up the TXT record of each of the tenant's domains due at `asOf` and applies what it found; answers whether a
 * state changed (the actor then syncs the organization's domains itself, so the hand-offs those changes wrote are
 * done). A resolver that did not answer is logged and the domain tried again later.
 */
async function checkDueDomains({ stores, domainChecks, metrics }: ActorActivityContext, tenantId: string, asOf: number): Promise<boolean> {
  const domains = stores.domains;
  if (!domains || !domainChecks) return false;
  let changed = false;
  for (const { id, at } of await domains.nextChecks(tenantId)) {
    if (at.getTime() > asOf) break;
    const checked = await checkDomain({ domains }, domainChecks, id, SYSTEM_ACTOR, new Date(asOf));
    if (!checked) continue;
    if (checked.unavailable) log.warn('DNS resolver did not answer; the domain is checked again later', { tenantId, domainId: id, code: checked.unavailable });
    metrics?.domainChecks.inc({ outcome: checked.unavailable ? 'resolver_unavailable' : checked.domain.state });
    if (checked.changed) changed = true;
    if (checked.handOffs.length > 0) await stores.outbox?.markDelivered(checked.handOffs.map((handOff) => handOff.id));
  }
  return changed;
}

/**
 * The tenant's audit events older than its retention at `asOf`, removed after their checkpoint (none set, or none
 * that old: nothing happens). The store does it in one transaction, so a repeat finds nothing left to remove.
 */
async function removeExpiredEvents({ stores }: ActorActivityContext, tenantId: string, asOf: number): Promise<void> {
  const removal = await stores.audit.removeExpired(tenantId, new Date(asOf), SYSTEM_ACTOR);
  if (removal) log.info('audit events past retention removed', { tenantId, removed: removal.removed, checkpointId: removal.checkpointId });
}

/** The timeline family's activities: what the actor's timers wait for, and what is due when one fires. */
export const timelineActivities = (context: ActorActivityContext) => ({
  loadTenantTimeline: (tenantId: string) => loadTenantTimeline(context, tenantId),
  applyDueLifecycle: (tenantId: string, asOf: number) => applyDueLifecycle(context, tenantId, asOf),
});
