import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { buildOpenApiDocument } from '../../api/openApiDocument.ts';
import { allRoutes } from '../../api/routes/index.ts';
import { startTestService, type TestService } from '../support/testService.ts';

let service: TestService;
let document: any;
beforeAll(async () => {
  service = await startTestService();
  const res = await service.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  document = res.body;
});
afterAll(() => service.close());

/** Every endpoint of SPEC.md's endpoint table. */
const SPEC_ENDPOINTS: [string, string][] = [
  ['get', '/healthz'],
  ['get', '/readyz'],
  ['post', '/v1/tenants'],
  ['get', '/v1/tenants/{id}'],
  ['get', '/v1/tenants/by-slug/{slug}'],
  ['post', '/v1/tenants/{id}/activate'],
  ['post', '/v1/tenants/{id}/cancel'],
  ['get', '/v1/entitlements'],
  ['get', '/v1/catalog'],
  ['post', '/v1/catalog/request'],
  ['post', '/v1/catalog/trial-request'],
  ['get', '/v1/api-keys'],
  ['post', '/v1/api-keys'],
  ['delete', '/v1/api-keys/{id}'],
  ['post', '/v1/internal/idp/claims'],
  ['post', '/v1/internal/api-keys/verify'],
  ['post', '/v1/audit'],
  ['get', '/v1/audit'],
  ['get', '/v1/users/{id}/memberships'],
];

/**
 * The document describes the API, not itself: GET /openapi.json is the one route that is served but, by choice,
 * not listed in its own paths (documenting the document adds nothing a client can use).
 */
const SELF = '/openapi.json';

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1.x document titled Tenant Registry, version 0.1.0', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: 'Tenant Registry', version: '0.1.0' });
  });

  it('documents every route the Koa router serves, with its method', () => {
    const { router } = createApp(service.deps);
    const served: string[] = [];
    for (const layer of router.stack) {
      if (layer.path === SELF) continue;
      const path = String(layer.path).replace(/:(\w+)/g, '{$1}');
      for (const method of layer.methods.map((m: string) => m.toLowerCase())) {
        if (method === 'head') continue; // Koa's router adds HEAD to every GET
        served.push(`${method} ${path}`);
      }
    }
    expect(served.length).toBeGreaterThanOrEqual(SPEC_ENDPOINTS.length);
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method} ${path}`),
      ),
    );
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents only routes the router serves', () => {
    const { router } = createApp(service.deps);
    const served = new Set(
      router.stack.flatMap((layer: any) =>
        layer.methods.map((m: string) => `${m.toLowerCase()} ${String(layer.path).replace(/:(\w+)/g, '{$1}')}`),
      ),
    );
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    expect(documented.filter((route) => !served.has(route))).toEqual([]);
  });

  it('documents every SPEC.md endpoint', () => {
    const missing = SPEC_ENDPOINTS.filter(([method, path]) => !document.paths?.[path]?.[method]);
    expect(missing).toEqual([]);
  });

  it('documents the Error schema with a required string error', () => {
    const schema = document.components.schemas.Error;
    expect(schema.properties.error.type).toBe('string');
    expect(schema.required).toContain('error');
  });
});

describe('security and links in the document', () => {
  it('declares no security scheme and no security requirement while AUTH_ENABLED is off', () => {
    expect(document.security).toBeUndefined();
    expect(document.components?.securitySchemes).toBeUndefined();
    expect(JSON.stringify(document.paths)).not.toContain('"security"');
  });

  it('declares the bearer scheme when AUTH_ENABLED is on, each operation with its scope or registry:admin, the probes public', () => {
    const withAuth = buildOpenApiDocument(allRoutes, { authEnabled: true }) as any;
    expect(withAuth.security).toEqual([{ bearerAuth: [] }]);
    expect(withAuth.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(withAuth.paths['/healthz'].get.security).toEqual([]);
    expect(withAuth.paths['/readyz'].get.security).toEqual([]);
    expect(withAuth.paths['/v1/tenants'].post.security).toEqual([{ bearerAuth: ['tenants:write'] }, { bearerAuth: ['registry:admin'] }]);
    expect(withAuth.paths['/v1/internal/api-keys/verify'].post.security).toEqual([{ bearerAuth: ['keys:verify'] }, { bearerAuth: ['registry:admin'] }]);
  });

  it('links the creating operations to every operation that takes their ids, with parameters and bodies they accept', () => {
    const operations = new Map<string, any>();
    for (const item of Object.values<any>(document.paths)) for (const operation of Object.values<any>(item)) operations.set(operation.operationId, operation);
    const tenantLinks = document.paths['/v1/tenants'].post.responses['201'].links;
    const keyLinks = document.paths['/v1/api-keys'].post.responses['201'].links;
    const streamLinks = document.paths['/v1/audit/streams'].post.responses['201'].links;
    expect(Object.keys(tenantLinks)).toEqual(
      expect.arrayContaining(['getTenant', 'activateTenant', 'listApiKeys', 'getTenantBySlug', 'putEntitlement', 'requestProduct', 'startTrial']),
    );
    // Creating a tenant creates no entitlement: DELETE is linked from the PUT that made one.
    expect(Object.keys(document.paths['/v1/tenants/{id}/entitlements/{product}'].put.responses['201'].links)).toEqual(['revokeEntitlement']);
    expect(Object.keys(keyLinks)).toEqual(expect.arrayContaining(['revokeApiKey', 'rotateApiKey']));
    expect(Object.keys(streamLinks)).toEqual(['deleteAuditStream']);
    const permissionLinks = document.paths['/v1/permissions'].post.responses['201'].links;
    const roleLinks = document.paths['/v1/roles'].post.responses['201'].links;
    expect(Object.keys(permissionLinks)).toEqual(['deletePermission']);
    expect(Object.keys(roleLinks).sort()).toEqual(['deleteRole', 'updateRole']);
    for (const link of [tenantLinks, keyLinks, streamLinks, permissionLinks, roleLinks].flatMap((links) => Object.values<any>(links))) {
      const operation = operations.get(link.operationId);
      expect(operation, link.operationId).toBeDefined();
      for (const name of Object.keys(link.parameters ?? {})) {
        expect(operation.parameters.map((p: { name: string }) => p.name), `${link.operationId}.${name}`).toContain(name);
      }
      if (link.requestBody) expect(operation.requestBody, link.operationId).toBeDefined();
    }
  });

  it('declares the rules the validators enforce: integer bounds of limit and cursor, the claims lookup key, the contract dates', () => {
    const parameter = (path: string, name: string) => document.paths[path].get.parameters.find((p: { name: string }) => p.name === name).schema;
    expect(parameter('/v1/audit', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(parameter('/v1/audit', 'cursor')).toMatchObject({ type: 'integer', minimum: 1 });
    expect(parameter('/v1/tenants', 'limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(document.components.schemas.ClaimsRequest.anyOf).toHaveLength(4);
    expect(document.components.schemas.ClaimsRequest.anyOf).toContainEqual({ required: ['user_id'] });
    expect(document.components.schemas.TenantActivate.description).toContain('contract_end must not be before contract_start');
    // The pattern the validator applies (the HTML standard's e-mail), not the looser `format: email` of RFC 5322.
    const email = document.components.schemas.TenantCreate.properties.admin_email;
    expect(new RegExp(email.pattern).test('9d3i5|@echoes.io')).toBe(true);
    expect(new RegExp(email.pattern).test('"quoted local"@example.com')).toBe(false);
  });

  it('says of every body the router reads that no object in it, at any depth, has a "__proto__" key (which is 400)', () => {
    const refuses = (names: any): boolean => names?.not?.const === '__proto__' || (names?.allOf ?? []).some(refuses);
    const annotations = new Set(['description', 'title', 'examples', 'default']);
    const problems: string[] = [];
    const seen = new Set<string>();
    const walk = (schema: any, at: string): void => {
      if (typeof schema !== 'object' || schema === null) return;
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.replace('#/components/schemas/', '');
        if (!seen.has(name)) {
          seen.add(name);
          walk(document.components.schemas[name], `#${name}`);
        }
        return;
      }
      if (Object.keys(schema).every((key) => annotations.has(key))) problems.push(`${at}: any value`);
      const types = [schema.type].flat();
      if (types.includes('object') && schema.additionalProperties !== false && !refuses(schema.propertyNames)) problems.push(`${at}: a "__proto__" key`);
      for (const [name, value] of Object.entries(schema.properties ?? {})) walk(value, `${at}.${name}`);
      if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${at}.*`);
      walk(schema.items, `${at}[]`);
      for (const [i, branch] of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].entries()) walk(branch, `${at}|${i}`);
    };
    let bodies = 0;
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        // Verify reads its body itself and answers any body, that one included, with a verdict.
        if (!operation.requestBody || operation.operationId === 'verifyApiKey') continue;
        bodies += 1;
        for (const [type, media] of Object.entries<any>(operation.requestBody.content)) walk(media.schema, `${method} ${path} ${type}`);
      }
    }
    expect(bodies).toBeGreaterThan(40);
    expect(seen).toContain('ScimRequest');
    expect(seen).toContain('JsonValue');
    expect(problems).toEqual([]);
  });

  it('declares the media types the export answers with', () => {
    expect(Object.keys(document.paths['/v1/audit/export'].get.responses['200'].content).sort()).toEqual(['application/x-ndjson', 'text/csv']);
  });
});
