import type { CatalogProductRecord } from './catalogProductRecord.ts';
import type { CatalogEntry } from '../schemas/catalog.ts';

export function toCatalogEntry(r: CatalogProductRecord): CatalogEntry {
  const entry: CatalogEntry = {
    key: r.key,
    name: r.name,
    description: r.description,
    plans_required: r.plansRequired,
    supports_trial: r.supportsTrial,
    client_ids: r.clientIds,
    fail: r.fail,
  };
  if (r.demoUrl) entry.demo_url = r.demoUrl;
  return entry;
}
