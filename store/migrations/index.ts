import { Migration20261121000001Initial } from './Migration20261121000001Initial.ts';
import { Migration20261121000002CatalogSeed } from './Migration20261121000002CatalogSeed.ts';

/** Versioned migrations in order; listed explicitly so they run the same from source and from a bundle. */
export const migrationsList = [
  { name: 'Migration20261121000001Initial', class: Migration20261121000001Initial },
  { name: 'Migration20261121000002CatalogSeed', class: Migration20261121000002CatalogSeed },
];
