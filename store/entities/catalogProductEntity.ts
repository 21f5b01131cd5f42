import { defineEntity, p } from '@mikro-orm/postgresql';

export const CatalogProductEntity = defineEntity({
  name: 'CatalogProduct',
  tableName: 'catalog_products',
  properties: {
    key: p.string().primary(),
    name: p.string(),
    description: p.text(),
    plansRequired: p.array(),
    demoUrl: p.string().nullable(),
    supportsTrial: p.boolean(),
    position: p.integer(),
  },
});
