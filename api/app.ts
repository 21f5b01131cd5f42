import Koa from 'koa';
import Router from '@koa/router';
import type { AppDependencies } from './appDependencies.ts';
import { buildOpenApiDocument } from './openApiDocument.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { createAuthMiddleware } from './auth/authMiddleware.ts';
import { requestScope } from './middleware/requestScope.ts';
import { exactPathRoutes, mountRoute, type AnyRoute } from './routeDefinition.ts';
import { allRoutes } from './routes/index.ts';
import { RegistryCache } from '../domain/registryCache.ts';
import { AuditAppendBatcher } from '../domain/audit/auditAppendBatcher.ts';
import { LastUsedMarks } from '../domain/apiKeys/lastUsedMarks.ts';
import { nativePool } from '../store/nativePool.ts';
import { PostgresApiKeyRepository } from '../store/postgresApiKeyRepository.ts';
import { PostgresAuditRepository } from '../store/postgresAuditRepository.ts';
import { PostgresAuditStreamRepository } from '../store/postgresAuditStreamRepository.ts';
import { loadTenantSnapshot } from '../domain/tenants/tenantSnapshot.ts';

export interface BuiltApp {
  app: Koa;
  router: Router;
  openApiDocument: ReturnType<typeof buildOpenApiDocument>;
}

export function createApp(deps: AppDependencies, routes: AnyRoute[] = allRoutes): BuiltApp {
  // Filled in on the object itself: handlers read deps at request time, and callers may complete it after this call.
  deps.cache ??= new RegistryCache({ ttlMs: deps.settings.CACHE_TTL_SECONDS * 1000 });
  const audit = (deps.audit ??= new PostgresAuditRepository(deps.orm));
  deps.auditStreams ??= new PostgresAuditStreamRepository(deps.orm);
  deps.auditAppends ??= new AuditAppendBatcher((tuples) => audit.insertBatch(tuples));
  const apiKeys = (deps.apiKeys ??= new PostgresApiKeyRepository(deps.orm));
  const lastUsedMarks = (deps.lastUsedMarks ??= new LastUsedMarks((ids, seconds) => apiKeys.markUsed(ids, seconds), {
    resolutionSeconds: deps.settings.API_KEY_LAST_USED_RESOLUTION_SECONDS,
    onError: (err) => deps.log.warn({ err }, 'last_used_at update failed'),
  }));
  deps.keyVerification ??= {
    keys: apiKeys,
    tenantSnapshot: async (id) => loadTenantSnapshot(await nativePool(deps.orm), { by: 'id', id }),
    cache: deps.cache,
    lastUsedResolutionSeconds: deps.settings.API_KEY_LAST_USED_RESOLUTION_SECONDS,
    markUsed: (keyId) => lastUsedMarks.mark(keyId),
  };
  const app = new Koa({ proxy: deps.settings.TRUST_PROXY });
  app.silent = true;
  const router = new Router();
  const openApiDocument = buildOpenApiDocument(routes);
  for (const route of routes) mountRoute(router, route, deps);
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });
  app.use(requestScope(deps.log));
  app.use(errorHandler());
  // Before the router: a refused request reaches no body parsing and no handler, and unknown paths reveal nothing.
  app.use(createAuthMiddleware(deps.authConfig));
  app.use(exactPathRoutes(routes, deps));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return { app, router, openApiDocument };
}
