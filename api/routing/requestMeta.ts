import type { Context } from 'koa';
import type { RequestMeta } from '../../domain/requestMeta.ts';

/** Who caused a mutation, as far as the request tells: the token's client (with authentication on), address, agent. */
export function requestMeta(ctx: Context): RequestMeta {
  const principal = ctx.state.principal as { sub?: string; azp?: string; client_id?: string } | undefined;
  const meta: RequestMeta = { sourceIp: ctx.ip, userAgent: ctx.get('user-agent') || undefined };
  const actor = principal?.azp ?? principal?.client_id ?? principal?.sub;
  if (actor) {
    meta.actorId = actor;
    meta.actorType = 'service';
    meta.recordedBy = actor;
  }
  return meta;
}
