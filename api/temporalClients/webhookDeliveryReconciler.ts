import type { WebhookEndpointRepository } from '../../domain/webhooks/webhookEndpointRepository.ts';
import type { Logger } from '../../platform/logger.ts';
import { runPeriodically } from '../../platform/periodicTask.ts';
import type { WebhookDeliveryClient } from './webhookDeliveryClient.ts';

/**
 * Makes sure every enabled webhook endpoint has its delivery workflow: one created while Temporal was unreachable, or
 * whose workflow an operator terminated, gets one within `intervalMs`. Safe on every replica (starting is idempotent,
 * and leaves a running delivery's backoff as it is).
 */
export function startWebhookDeliveryReconciler(deps: { endpoints: WebhookEndpointRepository; client: WebhookDeliveryClient; log: Logger; intervalMs: number }): {
  stop(): Promise<void>;
} {
  const sweep = async () => {
    for (const endpoint of await deps.endpoints.list()) {
      if (endpoint.state === 'disabled') continue;
      await deps.client.start(endpoint).catch((err: unknown) => deps.log.warn({ endpointId: endpoint.id, err }, 'could not start the webhook delivery; will retry'));
    }
  };
  return runPeriodically(deps.intervalMs, sweep, (err) => deps.log.warn({ err }, 'webhook delivery reconciliation failed'));
}
