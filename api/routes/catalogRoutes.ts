import { CatalogList, CatalogRequest } from '../../domain/schemas/catalog.ts';
import { ErrorBody } from '../../domain/schemas/common.ts';
import { TenantProduct } from '../../domain/schemas/entitlement.ts';
import { toCatalogEntry } from '../../domain/catalog/catalogEntryResponse.ts';
import { listCatalog } from '../../domain/catalog/listCatalog.ts';
import { requestProduct } from '../../domain/catalog/requestProduct.ts';
import { startTrial } from '../../domain/catalog/startTrial.ts';
import { toTenantProduct } from '../../domain/entitlements/tenantProductResponse.ts';
import { defineRoute } from '../routeDefinition.ts';
import { handOffInBackground } from '../tenantActors/handOff.ts';

const tags = ['catalog'];
const error = (description: string) => ({ description, schema: ErrorBody });

export const catalogRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/catalog',
    operationId: 'listCatalog',
    summary: 'List the products a tenant can request',
    tags,
    responses: { 200: { description: 'the catalog', schema: CatalogList } },
    handler: async (_input, { em }) => ({ status: 200, body: { items: (await listCatalog(em)).map(toCatalogEntry) } }),
  }),
  defineRoute({
    method: 'post',
    path: '/v1/catalog/request',
    operationId: 'requestProduct',
    summary: 'Ask sales for a product: records catalog.product_requested, grants nothing',
    tags,
    body: CatalogRequest,
    responses: { 202: { description: 'accepted; sales follows up' }, 400: error('invalid input'), 404: error('no such tenant or product') },
    handler: async ({ body }, { em, meta }) => {
      await requestProduct(em, body, meta);
      return { status: 202 };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/catalog/trial-request',
    operationId: 'startTrial',
    summary: 'Start a 14-day trial entitlement of a product',
    tags,
    body: CatalogRequest,
    responses: {
      201: { description: 'the trial entitlement', schema: TenantProduct },
      400: error('invalid input, or the product has no trial'),
      404: error('no such tenant or product'),
      409: error('the tenant already has or had the product, or is frozen or archived'),
    },
    handler: async ({ body }, { em, meta, deps }) => {
      const { entitlement, claimsPushCommandId } = await startTrial(em, body, meta);
      deps.cache?.invalidateTenant(entitlement.tenantId);
      handOffInBackground(deps, entitlement.tenantId, 'pushClaims', claimsPushCommandId);
      return { status: 201, body: toTenantProduct(entitlement) };
    },
  }),
];
