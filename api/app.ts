import { TokenBuckets } from '../domain/rateLimits/tokenBuckets.ts';
import Koa from 'koa';
import Router from '@koa/router';
import type { AppContext, AppDependencies } from './appDependencies.ts';
import { buildOpenApiDocument } from './openApiDocument.ts';
import { createAuthMiddleware, publicPathsOf, type PublicPaths } from './auth/authMiddleware.ts';
import { methodNotAllowed } from './middleware/methodNotAllowed.ts';
import { codecCors } from './middleware/codecCors.ts';
import { addressRateLimit, rateLimit, rateLimitsConfigured, type RateLimitClass } from './middleware/rateLimit.ts';
import { mountRoute, routeMatcher } from './routing/mountRoutes.ts';
import type { AnyRoute } from './routing/routeDefinition.ts';
import { allRoutes } from './routes/index.ts';
import { SCIM_PATH_PREFIX } from './routes/scim/scimRoute.ts';
import { PORTAL_PATH_PREFIX, portalRoutes } from './portal/portalRoutes.ts';
import { RegistryCache } from '../domain/reads/registryCache.ts';
import { DeepAuditPages } from '../domain/audit/deepAuditPages.ts';
import { AuditAppendBatcher } from '../domain/audit/auditAppendBatcher.ts';
import { SignInAuditLog } from '../domain/audit/signInAuditLog.ts';
import { InFlightLimit } from '../domain/rateLimits/inFlightLimit.ts';
import { LastUsedMarks } from '../domain/apiKeys/lastUsedMarks.ts';
import { postgresStores } from '../store/postgresStores.ts';
import { cachedReadiness } from './readinessChecks.ts';
import { ChangeEffectDispatcher } from './changeEffects/changeEffectDispatcher.ts';
import { systemHostResolver } from '../platform/hostResolver.ts';
import { domainChecksOf } from '../platform/domainChecksOf.ts';
import { ssoIssuerDiscovery } from './sso/ssoIssuerDiscovery.ts';
import { samlMetadataReaderOf } from '../activities/tenantActor/samlMetadataReaderOf.ts';
import { simulatedServiceProvider } from '../identityProvider/simulatedIdentityProvider.ts';
import { tenantLimitsOf } from './tenantLimitsOf.ts';
import { overloadRefusal } from './overloadRefusal.ts';
import { createInternalApp, useGuards, useRequestFrame, type RequestGuards } from './internalApp.ts';
import { servedOnInternalListener } from './listenerScope.ts';

export interface BuiltApp {
  app: Koa;
  router: Router;
  openApiDocument: ReturnType<typeof buildOpenApiDocument>;
  /** INTERNAL_PORT's app: the internal calls and the probes (api/internalApp.ts). */
  internal: Koa;
  /** What answers the requests the admission queue has no room for (api/overloadRefusal.ts). */
  refusal: Koa;
  /** What the handlers run on: the dependencies given, completed with what createApp made. */
  context: AppContext;
}

/** The parts of the context that createApp makes unless the caller brought its own. */
function completeContext(deps: AppDependencies): AppContext {
  const stores = deps.stores ?? postgresStores(deps.orm, deps.secretBox);
  const cache = deps.cache ?? new RegistryCache({ ttlMs: deps.settings.CACHE_TTL_SECONDS * 1000, staleIfErrorMs: deps.settings.CACHE_STALE_IF_ERROR_SECONDS * 1000 });
  const lastUsedMarks = new LastUsedMarks((ids, seconds) => stores.apiKeys.markUsed(ids, seconds), {
    resolutionSeconds: deps.settings.API_KEY_LAST_USED_RESOLUTION_SECONDS,
    onError: (err) => deps.log.warn({ err }, 'last_used_at update failed'),
  });
  const effects = new ChangeEffectDispatcher({
    cache,
    outbox: stores.outbox,
    log: deps.log,
    provisioningWaitMs: deps.settings.PROVISIONING_WAIT_MS,
    tenantActors: deps.tenantActors,
    auditStreams: deps.auditStreams,
    webhookDeliveries: deps.webhookDeliveries,
  });
  return {
    ...deps,
    readiness: cachedReadiness(deps.readiness, deps.settings.READINESS_CACHE_MS, deps.log),
    stores,
    cache,
    effects,
    tenantActorSignals: deps.tenantActors,
    users: deps.identityProvider,
    scimUsersPerTenantLimit: deps.settings.SCIM_USERS_PER_TENANT_LIMIT,
    ssoLinks: deps.identityProvider,
    domainChecks: domainChecksOf(deps.settings),
    issuerDiscovery: ssoIssuerDiscovery({
      allowedHosts: deps.settings.SSO_ISSUER_ALLOWED_HOSTS,
      resolveHost: deps.resolveHost ?? systemHostResolver(deps.settings.SSO_DISCOVERY_TIMEOUT_MS),
      timeoutMs: deps.settings.SSO_DISCOVERY_TIMEOUT_MS,
    }),
    samlMetadata: samlMetadataReaderOf(deps.settings, deps.resolveHost),
    ssoServiceProvider: deps.identityProvider
      ? (alias) => deps.identityProvider!.ssoServiceProvider(alias)
      : (alias) => simulatedServiceProvider(deps.settings.PUBLIC_BASE_URL ?? `http://127.0.0.1:${deps.settings.PORT}`, alias),
    lastUsedMarks,
    auditAppends: new AuditAppendBatcher((appends) => stores.audit.insertBatch(appends), { maxQueued: deps.settings.AUDIT_APPEND_MAX_QUEUED }),
    signInAudit: new SignInAuditLog((appends) => stores.audit.insertBatch(appends), {
      flushAfterMs: deps.settings.SIGN_IN_AUDIT_FLUSH_MS,
      onError: (err) => deps.log.warn({ err }, 'sign-in audit events not written yet'),
    }),
    deepAuditPages: new DeepAuditPages(),
    auditReads: { inFlight: new InFlightLimit(deps.settings.AUDIT_EXPORTS_IN_FLIGHT), statementTimeoutMs: deps.settings.AUDIT_STATEMENT_TIMEOUT_MS },
    keyVerification: {
      keys: stores.apiKeys,
      tenantSnapshot: (id) => stores.tenants.snapshot({ by: 'id', id }),
      cache,
      lastUsedResolutionSeconds: deps.settings.API_KEY_LAST_USED_RESOLUTION_SECONDS,
      markUsed: (keyId) => lastUsedMarks.mark(keyId),
    },
    tenantLimits: tenantLimitsOf(deps.settings),
    scimLimits: new TokenBuckets({ ratePerSecond: deps.settings.SCIM_RATE_LIMIT_PER_SECOND, burst: 2 * deps.settings.SCIM_RATE_LIMIT_PER_SECOND }),
    streamTargets: {
      allowedHosts: deps.settings.AUDIT_STREAM_ALLOWED_HOSTS,
      resolveHost: deps.resolveHost ?? systemHostResolver(deps.settings.AUDIT_STREAM_TIMEOUT_MS),
    },
  };
}

/** Verify and claims by their exact paths; the public probes are never limited; everything else shares one budget. */
function rateLimitClassOf(routes: AnyRoute[], publicPaths: PublicPaths): (path: string) => RateLimitClass | undefined {
  const own = new Map<string, RateLimitClass>();
  for (const route of routes) {
    if (route.operationId === 'verifyApiKey') own.set(route.path, 'verify');
    if (route.operationId === 'resolveClaims') own.set(route.path, 'claims');
  }
  return (path) => own.get(path) ?? (publicPaths.has(path) ? undefined : 'default');
}

export function createApp(deps: AppDependencies, routes: AnyRoute[] = allRoutes): BuiltApp {
  const context = completeContext(deps);
  const app = new Koa({ proxy: deps.settings.TRUST_PROXY, maxIpsCount: deps.settings.TRUST_PROXY_HOPS });
  app.silent = true;
  const router = new Router();
  const openApiDocument = buildOpenApiDocument(routes, { authEnabled: deps.authConfig.enabled, rateLimited: rateLimitsConfigured(deps.settings) });
  for (const route of routes) mountRoute(router, route, context);
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });
  useRequestFrame(app, context);
  app.use(codecCors(deps.settings.CODEC_CORS_ORIGINS ?? [`http://127.0.0.1:${deps.settings.TEMPORAL_UI_PORT}`, `http://localhost:${deps.settings.TEMPORAL_UI_PORT}`]));
  // Before the router: a refused request reaches no body parsing and no handler, and unknown paths reveal nothing.
  const publicPaths = publicPathsOf(routes, [SCIM_PATH_PREFIX, PORTAL_PATH_PREFIX]);
  const classOf = rateLimitClassOf(routes, publicPaths);
  // Before the token's verification, an address's flood is refused without one; without authentication there is
  // none to spare, and the per-client limit below is the address's already.
  const guards: RequestGuards = {
    ...(deps.authConfig.enabled ? { beforeAuth: addressRateLimit(deps.settings, classOf) } : {}),
    auth: createAuthMiddleware(deps.authConfig, publicPaths),
    limits: rateLimit(deps.settings, classOf),
  };
  useGuards(app, guards);
  // The admin portal's pages: outside the OpenAPI document and the service tokens (its own link and cookie).
  app.use(portalRoutes(context));
  app.use(methodNotAllowed(router));
  app.use(routeMatcher(routes, context));
  app.use(router.routes());
  const internal = createInternalApp(context, routes.filter((route) => servedOnInternalListener(route.path)), guards);
  return { app, internal, router, openApiDocument, refusal: overloadRefusal(context), context };
}
