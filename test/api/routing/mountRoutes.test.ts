import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerOf } from '../../../platform/httpServer.ts';
import type { AppContext } from '../../../api/appDependencies.ts';
import { routeMatcher } from '../../../api/routing/mountRoutes.ts';
import { defineRoute, type AnyRoute, type RouteScope } from '../../../api/routing/routeDefinition.ts';

/** An operation that answers which route served it and with which parameters. */
const echo = (path: string, method: 'get' | 'post' = 'get'): AnyRoute =>
  defineRoute({
    method,
    path,
    operationId: `echo ${method} ${path}`,
    access: 'public',
    summary: 'echo',
    tags: [],
    responses: {},
    ...(path.includes('{') ? { params: z.record(z.string(), z.string()) as never } : {}),
    handler: async ({ params }) => ({ status: 200, body: { route: path, params } }),
  }) as AnyRoute;

/** The scopes handlers received, to inspect their shape. */
const scopes: RouteScope[] = [];
const scoped: AnyRoute = defineRoute({
  method: 'get',
  path: '/v1/scoped',
  operationId: 'scoped',
  access: 'public',
  summary: 'keeps its scope',
  tags: [],
  responses: {},
  handler: async (_input, scope) => {
    scopes.push(scope);
    return { status: 200, body: { route: '/v1/scoped' } };
  },
}) as AnyRoute;

const routes = [
  scoped,
  echo('/v1/tenants/by-slug/{slug}'),
  echo('/v1/tenants/{id}'),
  echo('/v1/tenants/{id}/entitlements/{product}'),
  echo('/v1/tenants/{id}/archive', 'post'),
  echo('/v1/tenants'),
];
const context = { authConfig: { enabled: false }, settings: { BODY_LIMIT_BYTES: 1024 } } as unknown as AppContext;

let server: Server;
let base: string;
beforeAll(async () => {
  const app = new Koa();
  app.use(routeMatcher(routes, context));
  // What the router behind it would get.
  app.use((ctx) => {
    ctx.status = 299;
    ctx.body = { route: 'router' };
  });
  server = createServer(listenerOf(app.callback()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const call = async (path: string, method = 'GET') => {
  const response = await fetch(base + path, { method });
  return { status: response.status, ...((await response.json()) as { route: string; params?: Record<string, string> }) };
};

describe('routeMatcher: operations found by their path template without the router', () => {
  it('serves a template with its parameters decoded, and an exact path by its lookup', async () => {
    expect(await call('/v1/tenants/abc/entitlements/data%20export')).toEqual({ status: 200, route: '/v1/tenants/{id}/entitlements/{product}', params: { id: 'abc', product: 'data export' } });
    expect(await call('/v1/tenants')).toEqual({ status: 200, route: '/v1/tenants', params: {} });
  });

  it('a parameter that is not valid percent-encoding is passed on as it came, as the router does', async () => {
    expect((await call('/v1/tenants/%E0%A4%A')).params).toEqual({ id: '%E0%A4%A' });
  });

  it('the first registered template that fits wins, as in the router', async () => {
    expect((await call('/v1/tenants/by-slug/acme')).route).toBe('/v1/tenants/by-slug/{slug}');
    expect((await call('/v1/tenants/acme')).route).toBe('/v1/tenants/{id}');
  });

  it('matches the method too: another method on a template path goes on to the router', async () => {
    expect((await call('/v1/tenants/acme/archive', 'POST')).route).toBe('/v1/tenants/{id}/archive');
    expect((await call('/v1/tenants/acme/archive')).route).toBe('router');
  });

  it('leaves empty parameters and other spellings (trailing slash, letter case, extra segments) to the router', async () => {
    for (const path of ['/v1/tenants//entitlements/x', '/v1/tenants/acme/', '/V1/tenants/acme', '/v1/tenants/acme/entitlements', '/v1/tenants/a/b/c/d/e']) {
      expect({ path, ...(await call(path)) }).toMatchObject({ path, status: 299, route: 'router' });
    }
  });
});

describe('routeMiddleware: the scope a handler gets', () => {
  it('shares one shape across requests: meta is a getter of its prototype, not an accessor of each scope', async () => {
    await call('/v1/scoped');
    await call('/v1/scoped');
    const [first, second] = scopes;
    // An accessor of the object itself lives in its hidden class: a closure per request meant a hidden class per request.
    expect(Object.getOwnPropertyDescriptor(first!, 'meta')).toBeUndefined();
    expect(Object.getPrototypeOf(first)).toBe(Object.getPrototypeOf(second));
    expect(typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(first), 'meta')?.get).toBe('function');
    expect(first!.ctx).not.toBe(second!.ctx);
  });
});
