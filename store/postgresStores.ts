import type { RegistryStores } from '../domain/registryStores.ts';
import type { Orm } from './orm.ts';
import { PostgresActorOutbox } from './postgresActorOutbox.ts';
import { PostgresApiKeyRepository } from './postgresApiKeyRepository.ts';
import { PostgresAuditRepository } from './postgresAuditRepository.ts';
import { PostgresAuditStreamRepository } from './postgresAuditStreamRepository.ts';
import { PostgresCatalogRepository } from './postgresCatalogRepository.ts';
import { PostgresTenantRepository } from './postgresTenantRepository.ts';
import { PostgresInviteLedger } from './postgresInviteLedger.ts';

export function postgresStores(orm: Orm): RegistryStores {
  return {
    tenants: new PostgresTenantRepository(orm),
    catalog: new PostgresCatalogRepository(orm),
    apiKeys: new PostgresApiKeyRepository(orm),
    audit: new PostgresAuditRepository(orm),
    auditStreams: new PostgresAuditStreamRepository(orm),
    outbox: new PostgresActorOutbox(orm),
    invites: new PostgresInviteLedger(orm),
  };
}
