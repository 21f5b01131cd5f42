export type OutboxCommand = 'provision' | 'pushClaims';

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
  /** Due commands, leased to the caller for a while so another replica skips them. */
  leaseDue(limit: number): Promise<OutboxEntry[]>;
  recordDeliveryError(id: number, message: string): Promise<void>;
  /** Commands not delivered yet, and the age of the oldest in seconds (0 when none): what operators watch. */
  backlog(): Promise<{ pending: number; oldestSeconds: number }>;
}
