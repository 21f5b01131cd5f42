import type { OutboxCommand } from './tenantActorCommand.ts';

export interface OutboxEntry {
  id: number;
  tenantId: string;
  command: OutboxCommand;
  attempts: number;
}

/**
 * Commands for tenants' actors, written in the transaction of the change that causes them (by the tenant
 * repository) and delivered by the request or, failing that, by the relay (store/postgresActorOutbox.ts).
 */
export interface ActorOutbox {
  markDelivered(ids: number[]): Promise<void>;
  /**
   * Due commands, leased to the caller for `leaseSeconds` (longer than the caller's pass over them) so another replica
   * skips them meanwhile; each lease counts an attempt.
   */
  leaseDue(limit: number, leaseSeconds: number): Promise<OutboxEntry[]>;
  /**
   * A failed delivery: retried after a backoff, or, once `maxAttempts` were made, dead-lettered (kept, no longer
   * retried, with an audit event). Answers whether it was dead-lettered.
   */
  recordDeliveryError(entry: OutboxEntry, message: string, maxAttempts: number): Promise<{ deadLettered: boolean }>;
  /** Commands not delivered yet, the age of the oldest in seconds (0 when none), and the dead-lettered ones. */
  backlog(): Promise<{ pending: number; oldestSeconds: number; deadLettered: number }>;
}
