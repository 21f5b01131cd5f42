import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { AnyRoute } from './routing/routeDefinition.ts';
import { ADMIN_SCOPE, SCOPES } from './auth/scopes.ts';
import { ErrorBody } from '../domain/schemas/common.ts';
import { MAX_HEADER_BYTES } from '../platform/httpServer.ts';
import { MAX_URI_BYTES } from './middleware/uriLimit.ts';
import { withBodiesWithoutPrototypeKey } from './bodiesWithoutPrototypeKey.ts';

/**
 * The answers the service adds to an operation whatever it is: the HTTP server's refusals of an over-long request,
 * a body's size and type, refusals of authentication and rate limits, each in the operation's error body.
 */
function responsesOfConfiguration(route: AnyRoute, options: { authEnabled: boolean; rateLimited?: boolean }): AnyRoute['responses'] {
  const errorBody = route.errorBody ?? ErrorBody;
  const added: AnyRoute['responses'] = {
    414: { description: `the request target (path and query) exceeds ${MAX_URI_BYTES} bytes`, schema: errorBody },
    // Node's HTTP server answers it, without a body, before any route runs.
    431: { description: `the request line and headers exceed ${MAX_HEADER_BYTES} bytes` },
  };
  // A request the admission queue has no room for is refused before it is read (HTTP_MAX_QUEUED), with the Error body
  // and Retry-After a store outage gets too. The probes are never queued.
  if (!route.unqueued) {
    const overload = 'the service is overloaded (more requests waiting than HTTP_MAX_QUEUED), or what it needs is unreachable; retry after Retry-After seconds';
    const own = route.responses[503];
    added[503] = own ? { ...own, description: `${own.description}; or ${overload}` } : { description: overload, schema: errorBody };
  }
  // Every operation that reads a body checks its size and type before anything else.
  if (route.body) {
    added[413] = { description: route.bodyLimitBytes ? `the body exceeds BODY_LIMIT_BYTES or ${route.bodyLimitBytes} bytes, whichever is more` : 'the body exceeds BODY_LIMIT_BYTES', schema: errorBody };
    added[415] = { description: 'the body is not application/json (or another +json type)', schema: errorBody };
  }
  if (route.access === 'public') return added;
  if (options.authEnabled) {
    added[401] = { description: 'no valid bearer token (WWW-Authenticate names the problem)', schema: ErrorBody };
    added[403] = {
      description: `the token lacks the scope ${route.access} (or registry:admin)${route.acrossTenants ? ', or is bound to tenants (its tenant_id claim)' : ''}${route.scopeOfInput ? ', or the scope of what the request asks for (see the summary)' : ''}`,
      schema: ErrorBody,
    };
    // A tenant-bound token (its tenant_id claim) is answered 404 for any tenant it is not bound to.
    if (route.tenantIn && !route.responses[404]) added[404] = { description: 'no such tenant, or one the token is not bound to', schema: ErrorBody };
  }
  if (options.rateLimited) added[429] = { description: "the caller's rate limit is spent; retry after Retry-After seconds", schema: ErrorBody };
  return added;
}

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas and route list that the router serves. The bearer
 * scheme is declared only when the service requires it (AUTH_ENABLED): a document that asks for a token the
 * service does not want would make every generated client send one.
 */
export function buildOpenApiDocument(routes: AnyRoute[], options: { authEnabled: boolean; rateLimited?: boolean }) {
  const registry = new OpenAPIRegistry();
  if (options.authEnabled) {
    registry.registerComponent('securitySchemes', 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: `An access token of the configured issuer. Each operation names the scope it needs (the token's space-separated \`scope\` claim); a valid token without it gets 403 forbidden. Scopes: ${Object.entries(SCOPES)
        .map(([scope, what]) => `${scope} (${what})`)
        .join('; ')}.`,
    });
  }
  for (const route of routes) {
    const body = route.body ?? route.requestBodyForDocs;
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      ...(route.extension ? { 'x-spec-addition': true } : {}),
      // OpenAPI 3.1 lets a bearer requirement name the roles it needs: the operation's scope, or registry:admin.
      ...(options.authEnabled
        ? { security: route.access === 'public' ? [] : route.access === ADMIN_SCOPE ? [{ bearerAuth: [ADMIN_SCOPE] }] : [{ bearerAuth: [route.access] }, { bearerAuth: [ADMIN_SCOPE] }] }
        : {}),
      request: {
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { query: route.query } : {}),
        ...(body
          ? { body: { required: route.bodyRequired !== false, content: Object.fromEntries([...new Set([route.mediaType ?? 'application/json', 'application/json'])].map((type) => [type, { schema: body }])) } }
          : {}),
      },
      responses: Object.fromEntries(
        Object.entries({ ...route.responses, ...responsesOfConfiguration(route, options) }).map(([status, r]) => [
          status,
          {
            description: r.description,
            ...(r.schema ? { content: Object.fromEntries((r.contentTypes ?? [route.mediaType ?? 'application/json']).map((type) => [type, { schema: r.schema! }])) } : {}),
            ...(r.links ? { links: r.links } : {}),
          },
        ]),
      ),
    });
  }
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Tenant Registry',
      version: '0.1.0',
      description: 'Internal platform API for multi-tenant administration. See README for authentication and operations.',
    },
    servers: [{ url: '/' }],
    ...(options.authEnabled ? { security: [{ bearerAuth: [] }] } : {}),
  });
  // The bodies the router reads (not verify's, which reads its own and never refuses one).
  const readBodies = routes.filter((route) => route.body).map((route) => ({ path: route.path, method: route.method }));
  return withBodiesWithoutPrototypeKey(document, readBodies);
}
