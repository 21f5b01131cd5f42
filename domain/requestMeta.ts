import { SERVICE_ACTOR_TYPE } from './audit/serviceOwnedActions.ts';

/** Who caused a mutation, as far as the request tells: kept on every audit event the service appends. */
export interface RequestMeta {
  sourceIp?: string;
  userAgent?: string;
  actorId?: string;
  actorType?: string;
  /** The authenticated caller (the token's client) or the service itself: stored in a column no request body can set. */
  recordedBy?: string;
}

/** Mutations made by the service's own workflows rather than an HTTP caller. */
export const SYSTEM_ACTOR: RequestMeta = { actorId: 'tenant-registry', actorType: SERVICE_ACTOR_TYPE, recordedBy: 'tenant-registry' };
