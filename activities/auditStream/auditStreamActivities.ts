import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AuditRepository } from '../../domain/audit/auditRepository.ts';
import type { AuditStreamRepository } from '../../domain/auditStreams/auditStreamRepository.ts';
import { signDelivery } from '../../domain/auditStreams/streamSignature.ts';
import { resolveStreamTarget, streamHost, type StreamTargets } from '../../domain/auditStreams/streamTargets.ts';
import { standardWebhookHeaders } from '../../domain/webhooks/standardWebhookSignature.ts';
import { agentPinnedTo } from '../../platform/pinnedAgent.ts';
import { signedPost } from '../signedPost.ts';

/** Events read per step; each is still POSTed on its own, in id order. */
const BATCH = 100;

/** Where one batch left the stream: delivered through an event, or deleted meanwhile (the workflow then ends). */
export type AuditStreamProgress = { status: 'deleted' } | { status: 'delivering'; deliveredThroughId: number };

export interface AuditStreamActivityOptions {
  streams: AuditStreamRepository;
  audit: AuditRepository;
  /** Bound on one POST to the receiver (AUDIT_STREAM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Where a stream may deliver (AUDIT_STREAM_ALLOWED_HOSTS) and how its host is resolved. */
  targets: StreamTargets;
  /** How long one activity waits for new events before handing back to the workflow. */
  longPollMs?: number;
  /** How often it looks for new events meanwhile. */
  pollIntervalMs?: number;
}

/**
 * The headers of one delivery: the event's id and the older `X-Registry-Signature` (hex HMAC of the body), and the
 * Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), keyed by the secret's UTF-8
 * bytes, which bind the time of sending so a captured delivery cannot be replayed later.
 */
function deliveryHeaders(body: string, secret: string, eventId: number, streamId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-registry-signature': signDelivery(body, secret),
    'x-registry-event-id': String(eventId),
    'x-registry-stream-id': streamId,
    ...standardWebhookHeaders({ id: String(eventId), timestamp: Math.floor(Date.now() / 1000), body }, [Buffer.from(secret, 'utf8')]),
  };
}

export function createAuditStreamActivities(options: AuditStreamActivityOptions) {
  const { streams, audit, timeoutMs, targets } = options;
  const longPollMs = options.longPollMs ?? 15_000;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  return {
    /**
     * Delivers the stream's next events after `afterId` (or after the heartbeat of an earlier attempt), one POST each,
     * in id order, heartbeating the id of each one delivered; returns once a batch went out, or after waiting
     * `longPollMs` for events. Each batch resolves the stream's host and checks every address it gets (the stream
     * target rule), then connects only to those: a refused target fails the attempt like a failing receiver. A failed
     * POST fails the attempt, and the workflow's retry policy backs off. The stream is looked up on every step, so a
     * deletion stops delivery at the next one.
     */
    async deliverAuditStreamBatch(streamId: string, afterId: number): Promise<AuditStreamProgress> {
      const context = Context.current();
      const resumedAt = context.info.heartbeatDetails as number | undefined;
      let cursor = Math.max(afterId, resumedAt ?? 0);
      const waitUntil = Date.now() + longPollMs;
      for (;;) {
        const stream = await streams.findDeliverable(streamId);
        if (!stream || stream.deletedAt) return { status: 'deleted' };
        const events = await audit.answersAfter(stream.filter, cursor, BATCH);
        if (events.length > 0) {
          const target = await resolveStreamTarget(streamHost(stream.url), targets);
          if ('refused' in target) {
            const message = `delivery of event ${events[0]!.id} refused: ${target.refused}`;
            await streams.recordProgress(streamId, cursor, message);
            throw ApplicationFailure.retryable(message, 'target_refused');
          }
          const agent = agentPinnedTo(target.addresses);
          try {
            for (const row of events) {
              const id = Number(row.id);
              try {
                const body = row.answer;
                await signedPost({ url: stream.url, agent, body, headers: deliveryHeaders(body, stream.secret, id, streamId), timeoutMs, what: `event ${id}` });
              } catch (error) {
                await streams.recordProgress(streamId, cursor, (error as Error).message);
                throw error;
              }
              cursor = id;
              context.heartbeat(cursor);
            }
          } finally {
            await agent.destroy();
          }
          await streams.recordProgress(streamId, cursor, null);
          return { status: 'delivering', deliveredThroughId: cursor };
        }
        if (Date.now() >= waitUntil) return { status: 'delivering', deliveredThroughId: cursor };
        context.heartbeat(cursor);
        await context.sleep(pollIntervalMs);
      }
    },
  };
}

export type AuditStreamActivities = ReturnType<typeof createAuditStreamActivities>;
