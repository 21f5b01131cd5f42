import type { AuditStreamRepository } from '../../domain/auditStreams/auditStreamRepository.ts';
import type { Logger } from '../../platform/logger.ts';
import { runPeriodically } from '../../platform/periodicTask.ts';
import type { AuditStreamClient } from './auditStreamClient.ts';

/**
 * Makes sure every live stream has its delivery workflow: a stream created while Temporal was unreachable, or whose
 * workflow an operator terminated, gets one within `intervalMs`. Safe on every replica (starting is idempotent).
 */
export function startAuditStreamReconciler(deps: { streams: AuditStreamRepository; client: AuditStreamClient; log: Logger; intervalMs: number }): {
  stop(): Promise<void>;
} {
  const sweep = async () => {
    for (const stream of await deps.streams.listActive()) {
      await deps.client.start(stream).catch((err: unknown) => deps.log.warn({ streamId: stream.id, err }, 'could not start the audit stream delivery; will retry'));
    }
  };
  return runPeriodically(deps.intervalMs, sweep, (err) => deps.log.warn({ err }, 'audit stream reconciliation failed'));
}
