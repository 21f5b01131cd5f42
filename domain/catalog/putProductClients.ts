import { conflict, notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { ProductClientsPut } from '../schemas/catalog.ts';
import type { CatalogProductRecord } from './catalogProductRecord.ts';
import type { ProductClientsChange, ProductClientsFacts } from './catalogRepository.ts';

/**
 * The rule of a product's clients: they replace the ones it had, each once, sorted; a client another product has is a
 * conflict naming it (a client signs one product's users in: moving it is two explicit changes, never a side effect).
 * `fail` absent keeps the product's. A change that changes nothing writes nothing; one that does is audited
 * `catalog.clients_changed` with the old and new values.
 */
export function planProductClients(body: ProductClientsPut) {
  return ({ product, takenByOthers }: ProductClientsFacts): ProductClientsChange<CatalogProductRecord> => {
    const taken = [...takenByOthers].map(([client, other]) => `${client} (${other})`);
    if (taken.length > 0) throw conflict(`clients of another product: ${taken.join(', ')}`);
    const clientIds = [...new Set(body.client_ids)].sort();
    const fail = body.fail ?? product.fail;
    const after: CatalogProductRecord = { ...product, clientIds, fail };
    if (clientIds.join(' ') === product.clientIds.join(' ') && fail === product.fail) return { result: after };
    return {
      put: { clientIds, fail },
      event: {
        action: 'catalog.clients_changed',
        product: product.key,
        target_id: product.key,
        target_type: 'product',
        target_name: product.name,
        metadata: { product: product.key, old: { client_ids: product.clientIds, fail: product.fail }, new: { client_ids: clientIds, fail } },
      },
      result: after,
    };
  };
}

/** PUT /v1/catalog/{product}/clients: the product's clients and fail mode, pushed to every tenant's users through their actors. */
export async function putProductClients({ stores, effects }: RegistryContext, key: string, body: ProductClientsPut, meta: RequestMeta): Promise<CatalogProductRecord> {
  const written = await stores.catalog.changeClients(key, body.client_ids, meta, planProductClients(body));
  if (!written) throw notFound(`product "${key}"`);
  effects.follow({ handOffs: written.handOffs, staleCatalog: written.changed });
  return written.result;
}
