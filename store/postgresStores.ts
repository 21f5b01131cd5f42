import type { RegistryStores } from '../domain/registryStores.ts';
import type { Orm } from './orm.ts';
import type { SecretBox } from '../platform/secretBox.ts';
import { PostgresActorOutbox } from './postgresActorOutbox.ts';
import { PostgresPortalRepository } from './postgresPortalRepository.ts';
import { PostgresApiKeyRepository } from './postgresApiKeyRepository.ts';
import { PostgresAuditRepository } from './postgresAuditRepository.ts';
import { PostgresAuditStreamRepository } from './postgresAuditStreamRepository.ts';
import { PostgresCatalogRepository } from './postgresCatalogRepository.ts';
import { PostgresTenantRepository } from './postgresTenantRepository.ts';
import { PostgresInviteLedger } from './postgresInviteLedger.ts';
import { PostgresRoleRepository } from './postgresRoleRepository.ts';
import { PostgresMemberRepository } from './postgresMemberRepository.ts';
import { PostgresInvitationRepository } from './postgresInvitationRepository.ts';
import { PostgresDomainRepository } from './postgresDomainRepository.ts';
import { PostgresSsoConnectionRepository } from './postgresSsoConnectionRepository.ts';
import { PostgresDirectoryRepository } from './postgresDirectoryRepository.ts';
import { PostgresDirectoryUserRepository } from './postgresDirectoryUserRepository.ts';
import { PostgresDirectoryGroupRepository } from './postgresDirectoryGroupRepository.ts';
import { PostgresWebhookEndpointRepository } from './postgresWebhookEndpointRepository.ts';

/** The stores on `orm`; `secrets` seals what they must keep readable (audit streams' and webhook endpoints' signing secrets). */
export function postgresStores(orm: Orm, secrets: SecretBox): RegistryStores {
  return {
    tenants: new PostgresTenantRepository(orm),
    catalog: new PostgresCatalogRepository(orm),
    apiKeys: new PostgresApiKeyRepository(orm),
    audit: new PostgresAuditRepository(orm),
    auditStreams: new PostgresAuditStreamRepository(orm, secrets),
    outbox: new PostgresActorOutbox(orm),
    invites: new PostgresInviteLedger(orm),
    roles: new PostgresRoleRepository(orm),
    members: new PostgresMemberRepository(orm),
    invitations: new PostgresInvitationRepository(orm),
    domains: new PostgresDomainRepository(orm),
    ssoConnections: new PostgresSsoConnectionRepository(orm, secrets),
    directories: new PostgresDirectoryRepository(orm),
    portal: new PostgresPortalRepository(orm),
    directoryUsers: new PostgresDirectoryUserRepository(orm),
    directoryGroups: new PostgresDirectoryGroupRepository(orm),
    webhookEndpoints: new PostgresWebhookEndpointRepository(orm, secrets),
  };
}
