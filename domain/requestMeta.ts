/** Who caused a mutation, as far as the request tells: kept on every audit event the service appends. */
export interface RequestMeta {
  sourceIp?: string;
  userAgent?: string;
  actorId?: string;
  actorType?: string;
}

/** Mutations made by the service's own workflows rather than an HTTP caller. */
export const SYSTEM_ACTOR: RequestMeta = { actorId: 'tenant-registry', actorType: 'system' };
