import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';

/** Which events a stream carries; every given field must match (action_prefix: the action starts with it). */
export interface AuditStreamFilter {
  tenant_id?: string;
  product?: string;
  action_prefix?: string;
}

export interface AuditStreamRecord {
  id: string;
  url: string;
  filter: AuditStreamFilter;
  /** Events with ids above this are delivered (the newest event when the stream was created). */
  startAfterId: number;
  deliveredThroughId: number;
  createdAt: Date;
  deletedAt: Date | null;
}

/** What the delivering activity needs: the record and the signing secret, which never leaves the store otherwise. */
export interface DeliverableAuditStream extends AuditStreamRecord {
  secret: string;
}

/** The audit streams' store (store/postgresAuditStreamRepository.ts). */
export interface AuditStreamRepository {
  /** Inserts the stream with its audit event; its start is the newest event id at that moment. */
  create(stream: { id: string; url: string; secret: string; filter: AuditStreamFilter }, event: AuditAppend, meta: RequestMeta): Promise<AuditStreamRecord>;
  /** Streams not deleted, oldest first. */
  listActive(): Promise<AuditStreamRecord[]>;
  /** Marks the stream deleted with its audit event; false when there is no such live stream. */
  markDeleted(id: string, event: AuditAppend, meta: RequestMeta): Promise<boolean>;
  findDeliverable(id: string): Promise<DeliverableAuditStream | undefined>;
  /** Records delivery progress (never moves backwards) and the last delivery error, if any. */
  recordProgress(id: string, deliveredThroughId: number, lastError: string | null): Promise<void>;
  /** Encrypts the secrets of streams stored before secrets were encrypted; how many it encrypted. */
  sealPlaintextSecrets(): Promise<number>;
}
