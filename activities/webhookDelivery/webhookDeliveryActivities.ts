import { Context } from '@temporalio/activity';
import type { AuditRepository } from '../../domain/audit/auditRepository.ts';
import { resolveStreamTarget, streamHost, type StreamTargets } from '../../domain/auditStreams/streamTargets.ts';
import type { RenderedCloudEvent } from '../../domain/events/cloudEvent.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { standardWebhookHeaders } from '../../domain/webhooks/standardWebhookSignature.ts';
import type { DeliverableWebhookEndpoint, WebhookEndpointRepository } from '../../domain/webhooks/webhookEndpointRepository.ts';
import { webhookSecretKey } from '../../domain/webhooks/webhookSecret.ts';
import { agentPinnedTo } from '../../platform/pinnedAgent.ts';
import { signedPost } from '../signedPost.ts';

/** Events read per step; each is still POSTed on its own, in sequence order. */
const BATCH = 100;
/** How often a batch under way heartbeats its position: well within the activity's heartbeat timeout. */
const HEARTBEAT_EVERY_MS = 250;

/** Where delivery stands: after a sequence, under the endpoint's replay generation. */
export interface WebhookPosition {
  afterSequence: number;
  replayGeneration: number;
}

/**
 * How one batch left the endpoint: `ended` (deleted or disabled: the workflow ends), some events delivered, none to
 * deliver within the long poll, or a failed delivery (and whether any went through before it).
 */
export type WebhookBatchOutcome =
  | { status: 'ended' }
  | ({ status: 'delivered' | 'idle' } & WebhookPosition)
  | ({ status: 'failed'; progressed: boolean; error: string } & WebhookPosition);

export interface WebhookDeliveryActivityOptions {
  endpoints: WebhookEndpointRepository;
  /** Where the events are read, as the events feed reads them. */
  audit: AuditRepository;
  /** Bound on one POST to the receiver (AUDIT_STREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Where an endpoint may deliver (AUDIT_STREAM_ALLOWED_HOSTS) and how its host is resolved. */
  targets: StreamTargets;
  /** How long one activity waits for new events before handing back to the workflow. */
  longPollMs?: number;
  /** How often it looks for new events meanwhile. */
  pollIntervalMs?: number;
}

/**
 * The request of one event: its CloudEvent (the feed's bytes) as the body, signed with every key that signs now;
 * `webhook-id` is the CloudEvent's id, the same on every retry and replay, so a receiver tells a repeat by it.
 */
function deliveryOf(keys: readonly Buffer[], row: RenderedCloudEvent): { body: string; headers: Record<string, string> } {
  const body = row.cloud_event;
  return {
    body,
    headers: {
      'content-type': 'application/cloudevents+json; charset=utf-8',
      ...standardWebhookHeaders({ id: String(Number(row.id)), timestamp: Math.floor(Date.now() / 1000), body }, keys),
    },
  };
}

export function createWebhookDeliveryActivities(options: WebhookDeliveryActivityOptions) {
  const { endpoints, audit, timeoutMs, targets } = options;
  const longPollMs = options.longPollMs ?? 15_000;
  const pollIntervalMs = options.pollIntervalMs ?? 500;

  /** POSTs the events in order, heartbeating each one delivered; stops at the first failure and records it. */
  async function deliver(endpoint: DeliverableWebhookEndpoint, events: RenderedCloudEvent[], from: WebhookPosition): Promise<WebhookBatchOutcome> {
    const context = Context.current();
    const position = { ...from };
    const fail = async (error: string): Promise<WebhookBatchOutcome> => {
      await endpoints.recordProgress(endpoint.id, position.replayGeneration, position.afterSequence, error);
      return { status: 'failed', ...position, progressed: position.afterSequence !== from.afterSequence, error };
    };
    const target = await resolveStreamTarget(streamHost(endpoint.url), targets);
    if ('refused' in target) return fail(`delivery of sequence ${events[0]!.id} refused: ${target.refused}`);
    const agent = agentPinnedTo(target.addresses);
    const keys = endpoint.signingSecrets.map(webhookSecretKey);
    let lastHeartbeat = performance.now();
    try {
      for (const row of events) {
        try {
          await signedPost({ url: endpoint.url, agent, ...deliveryOf(keys, row), timeoutMs, what: `sequence ${row.id}` });
        } catch (error) {
          return await fail((error as Error).message);
        }
        position.afterSequence = Number(row.id);
        // Temporal records a heartbeat every few seconds whatever the calls; each call still encodes and encrypts
        // its details, which cost the worker more than the POST itself, so the position goes out at most this often.
        if (performance.now() - lastHeartbeat >= HEARTBEAT_EVERY_MS) {
          context.heartbeat(position);
          lastHeartbeat = performance.now();
        }
      }
    } finally {
      await agent.destroy();
    }
    await endpoints.recordProgress(endpoint.id, position.replayGeneration, position.afterSequence, null);
    return { status: 'delivered', ...position };
  }

  return {
    /**
     * Delivers the endpoint's next events after the position (or after the heartbeat of an earlier attempt, so a
     * retry or another worker after a crash resumes there), one POST each, in sequence order; returns once a batch
     * went out or failed, or after waiting `longPollMs` for events. Each batch resolves the endpoint's host and checks
     * every address (the audit streams' target rule), then connects only to those. The endpoint is read at every
     * step: a deletion or a disabling ends delivery, and a newer replay generation moves the cursor to the replay.
     */
    async deliverWebhookBatch(input: { endpointId: string } & WebhookPosition): Promise<WebhookBatchOutcome> {
      const context = Context.current();
      let position: WebhookPosition = (context.info.heartbeatDetails as WebhookPosition | undefined) ?? { afterSequence: input.afterSequence, replayGeneration: input.replayGeneration };
      const waitUntil = Date.now() + longPollMs;
      for (;;) {
        const endpoint = await endpoints.findDeliverable(input.endpointId);
        if (!endpoint || endpoint.deletedAt || endpoint.state === 'disabled') return { status: 'ended' };
        if (endpoint.replayGeneration > position.replayGeneration) {
          position = { afterSequence: endpoint.lastDeliveredSequence, replayGeneration: endpoint.replayGeneration };
          context.heartbeat(position);
        }
        const filter = { types: endpoint.types, ...(endpoint.tenantId === null ? {} : { tenant_id: endpoint.tenantId }) };
        const events = await audit.chainedEventsAfter(filter, position.afterSequence, BATCH);
        if (events.length > 0) return deliver(endpoint, events, position);
        if (Date.now() >= waitUntil) return { status: 'idle', ...position };
        context.heartbeat(position);
        await context.sleep(pollIntervalMs);
      }
    },

    /** The retry window is over: the endpoint is disabled, with its audit event (once, whatever the retries). */
    async disableWebhookEndpoint(input: { endpointId: string; reason: string; failingSince: string }): Promise<void> {
      await endpoints.disable(
        input.endpointId,
        { action: 'webhook_endpoint.disabled', target_id: input.endpointId, target_type: 'webhook_endpoint', metadata: { reason: input.reason, failing_since: input.failingSince } },
        SYSTEM_ACTOR,
      );
    },
  };
}

export type WebhookDeliveryActivities = ReturnType<typeof createWebhookDeliveryActivities>;
