import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { accessLoggerOf, type Logger } from '../../platform/logger.ts';
import { arrivalOf } from '../../platform/requestAdmission.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * A request's ctx.state: its id, and its logger carrying that id, made on first use (errors, mostly). The getter
 * lives on the prototype, so a request that logs nothing costs no closures and no property definition.
 */
class RequestState {
  readonly requestId: string;
  readonly #parent: Logger;
  #log: Logger | undefined;
  [other: string]: unknown;

  constructor(parent: Logger, requestId: string) {
    this.#parent = parent;
    this.requestId = requestId;
  }

  get log(): Logger {
    return (this.#log ??= this.#parent.child({ requestId: this.requestId }));
  }

  set log(value: Logger) {
    this.#log = value;
  }
}

/**
 * Gives each request an id (the caller's X-Request-Id when sane), a logger carrying it, and one access-log line.
 * The access line names the request id itself, and is skipped outright when the level is above info. Its `ms` count
 * from the request's arrival, its wait for a slot (platform/requestAdmission.ts) included: what the client waited.
 */
export function requestScope(log: Logger): Middleware {
  const access = accessLoggerOf(log);
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = incoming !== '' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', requestId);
    // What the middleware outside this one put in ctx.state stays.
    ctx.state = Object.assign(new RequestState(log, requestId), ctx.state);
    const started = arrivalOf(ctx.req);
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
