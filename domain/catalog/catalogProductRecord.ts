import type { SignInFailMode } from '../signIn/productClients.ts';

/** A product of the self-service catalog (seeded by a migration). */
export interface CatalogProductRecord {
  key: string;
  name: string;
  description: string;
  plansRequired: string[];
  demoUrl: string | null;
  supportsTrial: boolean;
  position: number;
  /** The identity-provider clients that sign its users in, sorted (SPEC-EXTENSIONS §15). */
  clientIds: string[];
  /** What its sign-ins do while the registry cannot be asked. */
  fail: SignInFailMode;
}
