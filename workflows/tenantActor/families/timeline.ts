import type { ActorContext } from '../actorContext.ts';
import type { Organization } from './organization.ts';
import type { Syncs } from './syncs.ts';

/**
 * The tenant's timeline: every durable timer of the tenant is an event the loadTenantTimeline activity reads (the
 * trial's reminder and end, entitlements' expiries, pending invitations' expiries, domains' next look-ups, SAML
 * connections' metadata readings and certificate notices), and the
 * retries of failed pushes and syncs. The actor sleeps until the soonest; when a timer fires, applyDueLifecycle
 * applies what is due, each rule idempotent at its timer's time, and the actor carries out what that changed.
 */
export class Timeline {
  readonly #actor: ActorContext;
  readonly #organization: Organization;
  readonly #syncs: Syncs;
  /** The timeline must be read again before the actor waits: at the start of a run and after anything that may have moved it. */
  #stale = true;
  /** The command being handled put what it moved in the timeline itself (an invitation's send); no read is needed for it. */
  #kept = false;

  constructor(actor: ActorContext, organization: Organization, syncs: Syncs) {
    this.#actor = actor;
    this.#organization = organization;
    this.#syncs = syncs;
  }

  get stale(): boolean {
    return this.#stale;
  }

  /** A command is about to be handled: until it keeps the timeline itself, it may move it. */
  beforeCommand(): void {
    this.#kept = false;
  }

  /**
   * The command was handled. What it did may have moved the timeline (a new trial end, a new expiry), unless it kept
   * it itself: answers whether it is to be read again.
   */
  afterCommand(): boolean {
    if (!this.#kept) this.#stale = true;
    return !this.#kept;
  }

  /** The tenant's status and timeline read again; local activities, no round trip through the server. */
  async read(): Promise<void> {
    this.#stale = false;
    const { status, upcoming } = await this.#actor.stored('loadTenantTimeline', () => this.#actor.localStore.loadTenantTimeline(this.#actor.tenantId));
    this.#actor.state.timeline = {
      status,
      upcoming: upcoming.map((e) => ({
        kind: e.kind,
        at: new Date(e.at).toISOString(),
        ...(e.kind === 'entitlement_expired' ? { product: e.product } : {}),
        ...(e.kind === 'invitation_expired' ? { invitationId: e.invitationId } : {}),
        ...(e.kind === 'domain_check' ? { domainId: e.domainId } : {}),
        ...(e.kind === 'sso_metadata_refresh' || e.kind === 'sso_certificate_notice' ? { connectionId: e.connectionId } : {}),
      })),
    };
  }

  /** The tenant is archived and nothing is queued or left to retry: its actor may complete. */
  archived(): boolean {
    return this.#actor.state.timeline?.status === 'archived' && this.#actor.queue.length === 0 && !this.#organization.failing() && !this.#syncs.failing();
  }

  /**
   * Puts a sent invitation's expiry in the timeline, as reading it again would: the send moved nothing else in it.
   * Without a timeline read yet, the read to come has it.
   */
  keepInvitationExpiry(invitationId: string, expiresAt: number): void {
    const timeline = this.#actor.state.timeline;
    if (!timeline || this.#stale) return;
    const others = timeline.upcoming.filter((e) => !(e.kind === 'invitation_expired' && e.invitationId === invitationId));
    const expiry = { kind: 'invitation_expired' as const, at: new Date(expiresAt).toISOString(), invitationId };
    timeline.upcoming = [...others, expiry].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    this.#kept = true;
  }

  /** The soonest of the next lifecycle event and the next retry of a failing claims push or sync. */
  nextWakeAt(): number | undefined {
    const times = [
      ...(this.#actor.state.timeline?.upcoming ?? []).map((e) => Date.parse(e.at)),
      ...this.#organization.retryTimes(),
      ...this.#syncs.retryTimes(),
    ];
    return times.length ? Math.min(...times) : undefined;
  }

  /**
   * A timer fired: retry a failing push and the failing syncs whose time came, apply the lifecycle events now due,
   * push what they changed.
   */
  async onTimer(): Promise<void> {
    const now = Date.now();
    this.#stale = true;
    await this.#organization.retryDue(now);
    await this.#syncs.retryDue(now);
    if (!(this.#actor.state.timeline?.upcoming ?? []).some((e) => Date.parse(e.at) <= now)) return;
    const { claimsChanged, membersRemoved, domainsChanged, ssoChanged } = await this.#actor.stored('applyDueLifecycle', () =>
      this.#actor.localStore.applyDueLifecycle(this.#actor.tenantId, now),
    );
    if (claimsChanged) await this.#organization.pushClaims();
    if (domainsChanged) await this.#syncs.domains();
    // A SAML connection whose metadata changed (a certificate added or removed) has its identity provider put right now.
    for (const connectionId of ssoChanged ?? []) await this.#syncs.sso(connectionId);
    // The pending members of expired invitations leave the organization now (their outbox copies follow later).
    for (const userId of membersRemoved ?? []) await this.#syncs.member(userId);
  }
}
