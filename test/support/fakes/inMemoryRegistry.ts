import type { CatalogProductRecord } from '../../../domain/catalog/catalogProductRecord.ts';
import type { CatalogRepository } from '../../../domain/catalog/catalogRepository.ts';
import type { RegistryContext } from '../../../domain/registryContext.ts';
import type { RegistryStores } from '../../../domain/registryStores.ts';
import type { TenantActorSignals } from '../../../domain/tenantActor/tenantActorSignals.ts';
import { InMemoryApiKeyRepository } from './inMemoryApiKeyRepository.ts';
import { InMemoryMemberRepository } from './inMemoryMemberRepository.ts';
import { InMemoryRoleRepository } from './inMemoryRoleRepository.ts';
import { InMemoryTenantRepository } from './inMemoryTenantRepository.ts';
import { RecordingChangeEffects } from './recordingChangeEffects.ts';
import { tenantLimitsOf } from '../../../api/tenantLimitsOf.ts';
import { loadSettings } from '../../../platform/config.ts';

export const catalogProduct = (key: string, supportsTrial = true): CatalogProductRecord => ({
  key, name: key, description: '', plansRequired: [], demoUrl: null, supportsTrial, position: 0, clientIds: [], fail: 'open',
});

/** A catalog of `analytics` (with a trial) and `sso` (without), neither with clients; it changes nothing. */
export const fakeCatalog: CatalogRepository = {
  list: async () => [catalogProduct('analytics'), catalogProduct('sso', false)],
  find: async (key) => [catalogProduct('analytics'), catalogProduct('sso', false)].find((p) => p.key === key),
  clients: async () => [],
  changeClients: async () => {
    throw new Error('the fake catalog changes nothing');
  },
};

export interface InMemoryRegistry extends RegistryContext {
  tenants: InMemoryTenantRepository;
  apiKeys: InMemoryApiKeyRepository;
  roles: InMemoryRoleRepository;
  /** On `roles`' tenants and roles. */
  members: InMemoryMemberRepository;
  effects: RecordingChangeEffects;
}

/**
 * A RegistryContext of in-memory stores and a recording effects port, for service-level tests. A store the test did
 * not give (and no fake exists for) fails loudly when a service reaches for it.
 */
export function inMemoryRegistry(given: Partial<RegistryStores> & { tenantActorSignals?: TenantActorSignals } = {}): InMemoryRegistry {
  const tenants = (given.tenants as InMemoryTenantRepository | undefined) ?? new InMemoryTenantRepository();
  const apiKeys = (given.apiKeys as InMemoryApiKeyRepository | undefined) ?? new InMemoryApiKeyRepository();
  const roles = (given.roles as InMemoryRoleRepository | undefined) ?? new InMemoryRoleRepository();
  const members = (given.members as InMemoryMemberRepository | undefined) ?? new InMemoryMemberRepository(roles);
  const known: Partial<RegistryStores> = { catalog: fakeCatalog, ...given, tenants, apiKeys, roles, members };
  const stores = new Proxy(known, {
    get(target, name: string) {
      const store = target[name as keyof RegistryStores];
      if (!store) throw new Error(`the in-memory registry has no ${name} store; give one`);
      return store;
    },
  }) as RegistryStores;
  return { stores, tenants, apiKeys, roles, members, effects: new RecordingChangeEffects(), tenantLimits: tenantLimitsOf(loadSettings({})), tenantActorSignals: given.tenantActorSignals };
}
