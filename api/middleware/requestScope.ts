import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { accessLoggerOf, type Logger } from '../../platform/logger.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's X-Request-Id when sane), a logger carrying it, and one access-log line.
 * The per-request child logger is made only when something logs through it (errors, mostly): the access line
 * names the request id itself, and is skipped outright when the level is above info.
 */
export function requestScope(log: Logger): Middleware {
  const access = accessLoggerOf(log);
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = incoming !== '' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (child ??= log.child({ requestId })),
      set: (value: Logger) => {
        child = value;
      },
      enumerable: true,
      configurable: true,
    });
    const started = performance.now();
    try {
      await next();
    } finally {
      if (access.isLevelEnabled('info')) {
        access.info(
          { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
          'request',
        );
      }
    }
  };
}
