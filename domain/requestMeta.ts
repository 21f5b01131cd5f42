import { SERVICE_ACTOR_TYPE } from './audit/serviceOwnedActions.ts';

/** Who caused a mutation, as far as the request tells: kept on every audit event the service appends. */
export interface RequestMeta {
  sourceIp?: string;
  userAgent?: string;
  actorId?: string;
  actorType?: string;
  /** The authenticated caller (the token's client) or the service itself: stored in a column no request body can set. */
  recordedBy?: string;
  /** Merged into the metadata of every event the change appends (a portal session's link and its creator). */
  auditMetadata?: Record<string, unknown>;
}

/** Mutations made by the service's own workflows rather than an HTTP caller. */
export const SYSTEM_ACTOR: RequestMeta = { actorId: 'tenant-registry', actorType: SERVICE_ACTOR_TYPE, recordedBy: 'tenant-registry' };
