import type { ApiKeyRepository } from './apiKeys/apiKeyRepository.ts';
import type { AuditRepository } from './audit/auditRepository.ts';
import type { AuditStreamRepository } from './auditStreams/auditStreamRepository.ts';
import type { CatalogRepository } from './catalog/catalogRepository.ts';
import type { ActorOutbox } from './tenantActor/actorOutboxRepository.ts';
import type { TenantRepository } from './tenants/tenantRepository.ts';
import type { InviteLedger } from './provisioning/inviteLedger.ts';
import type { RoleRepository } from './roles/roleRepository.ts';
import type { MemberRepository } from './members/memberRepository.ts';
import type { InvitationRepository } from './invitations/invitationRepository.ts';
import type { DomainRepository } from './domains/domainRepository.ts';
import type { SsoConnectionRepository } from './sso/ssoConnectionRepository.ts';
import type { DirectoryRepository } from './directories/directoryRepository.ts';
import type { DirectoryUserRepository } from './directories/directoryUserRepository.ts';
import type { DirectoryGroupRepository } from './directories/directoryGroupRepository.ts';
import type { PortalRepository } from './portal/portalRepository.ts';
import type { WebhookEndpointRepository } from './webhooks/webhookEndpointRepository.ts';

/** Every aggregate's store, as the API and the worker are assembled from them (store/postgresStores.ts). */
export interface RegistryStores {
  tenants: TenantRepository;
  catalog: CatalogRepository;
  apiKeys: ApiKeyRepository;
  audit: AuditRepository;
  auditStreams: AuditStreamRepository;
  outbox: ActorOutbox;
  invites: InviteLedger;
  roles: RoleRepository;
  members: MemberRepository;
  invitations: InvitationRepository;
  domains: DomainRepository;
  ssoConnections: SsoConnectionRepository;
  directories: DirectoryRepository;
  directoryUsers: DirectoryUserRepository;
  directoryGroups: DirectoryGroupRepository;
  portal: PortalRepository;
  webhookEndpoints: WebhookEndpointRepository;
}
