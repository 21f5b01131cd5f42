import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/openApiDocument.ts';
import { allRoutes } from '../../api/routes/index.ts';
import { startTestService, uniqueSlug, type TestService } from '../support/testService.ts';

/**
 * A client generated from the served document (openapi-typescript) must accept what the service really answers: each
 * response below is recorded from the running service, written out as a typed constant of the generated types, and
 * the file is type-checked with the project's TypeScript in strict mode.
 */
const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const workDir = join(root, '.data', 'test', `generated-client-${process.pid}`);

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  await mkdir(workDir, { recursive: true });
  const document = buildOpenApiDocument(allRoutes, { authEnabled: false });
  await writeFile(join(workDir, 'schema.ts'), astToString(await openapiTS(document as never)));
});
afterAll(() => service?.close());

type Recorded = { type: string; value: unknown };

/** `paths[path][method]['responses'][status]['content'][type]` of the generated types. */
const responseType = (path: string, method: string, status: number, type = 'application/json') =>
  `paths[${JSON.stringify(path)}][${JSON.stringify(method)}]['responses'][${status}]['content'][${JSON.stringify(type)}]`;

async function typeCheck(recorded: Recorded[]): Promise<{ ok: boolean; output: string }> {
  const source = [
    "import type { paths } from './schema.ts';",
    ...recorded.map(({ type, value }, i) => `export const example${i}: ${type} = ${JSON.stringify(value)};`),
  ].join('\n');
  const file = join(workDir, `examples-${Date.now()}.ts`);
  await writeFile(file, source);
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--exactOptionalPropertyTypes', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--allowImportingTsExtensions', '--skipLibCheck'];
  return run(tsc, [...flags, file]).then(
    () => ({ ok: true, output: '' }),
    (error: { stdout: string }) => ({ ok: false, output: error.stdout }),
  );
}

async function recordResponses(): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  const record = async (method: string, path: string, template: string, body?: unknown) => {
    const res = await service.request(method.toUpperCase(), path, body);
    recorded.push({ type: responseType(template, method, res.status), value: res.body });
    return res.body;
  };
  const created = await record('post', '/v1/tenants', '/v1/tenants', { slug: uniqueSlug('client'), name: 'Client', kind: 'customer' });
  const id = created.tenant.id;
  await record('get', `/v1/tenants/${id}`, '/v1/tenants/{id}');
  await record('get', `/v1/tenants/by-slug/${created.tenant.slug}`, '/v1/tenants/by-slug/{slug}');
  await record('get', '/v1/tenants?limit=2', '/v1/tenants');
  await record('patch', `/v1/tenants/${id}`, '/v1/tenants/{id}', { name: 'Renamed' });
  await record('get', '/v1/tenants/00000000-0000-4000-8000-000000000000', '/v1/tenants/{id}');
  await record('put', `/v1/tenants/${id}/entitlements/analytics`, '/v1/tenants/{id}/entitlements/{product}', { enabled: true });
  await record('get', `/v1/entitlements?tenant_id=${id}`, '/v1/entitlements');
  await record('get', '/v1/catalog', '/v1/catalog');
  const key = await record('post', '/v1/api-keys', '/v1/api-keys', { tenant_id: id, name: 'ci', scopes: ['read'] });
  await record('get', `/v1/api-keys?tenant_id=${id}`, '/v1/api-keys');
  await record('post', '/v1/internal/api-keys/verify', '/v1/internal/api-keys/verify', { key: key.plaintext });
  await record('post', '/v1/internal/api-keys/verify', '/v1/internal/api-keys/verify', { key: 'trk_nope' });
  await record('post', `/v1/api-keys/${key.api_key.id}/rotate`, '/v1/api-keys/{id}/rotate', {});
  await record('post', '/v1/internal/idp/claims', '/v1/internal/idp/claims', { tenant_id: id });
  await record('post', '/v1/audit', '/v1/audit', { action: 'client.checked', tenant_id: id, metadata: { n: 1 } });
  await record('get', `/v1/audit?tenant_id=${id}`, '/v1/audit');
  await record('get', '/v1/audit/integrity', '/v1/audit/integrity');
  await record('post', `/v1/tenants/${id}/activate`, '/v1/tenants/{id}/activate', { plan: 'growth' });
  await record('post', '/v1/tenants', '/v1/tenants', { slug: '!', name: '' });
  await record('get', '/healthz', '/healthz');
  await record('get', '/readyz', '/readyz');
  return recorded;
}

describe('a client generated from the OpenAPI document', () => {
  it("type-checks against the service's own responses, errors included", async () => {
    const recorded = await recordResponses();
    expect(recorded.length).toBeGreaterThan(20);
    const result = await typeCheck(recorded);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });

  it('refuses a response that breaks the contract (the check can fail)', async () => {
    const tenant = (await service.request('POST', '/v1/tenants', { slug: uniqueSlug('broken'), name: 'Broken' })).body.tenant;
    const broken = { ...tenant, status: 'paused', created_at: 42 };
    const result = await typeCheck([{ type: responseType('/v1/tenants/{id}', 'get', 200), value: broken }]);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/'"paused"' is not assignable/);
    expect(result.output).toMatch(/'number' is not assignable to type 'string'/);
  });
});
