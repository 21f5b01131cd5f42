/** A product of the self-service catalog (seeded by a migration). */
export interface CatalogProductRecord {
  key: string;
  name: string;
  description: string;
  plansRequired: string[];
  demoUrl: string | null;
  supportsTrial: boolean;
  position: number;
}
