import { Migration20261121000001Initial } from './Migration20261121000001Initial.ts';
import { Migration20261121000002CatalogSeed } from './Migration20261121000002CatalogSeed.ts';
import { Migration20261121000003IdpSimulator } from './Migration20261121000003IdpSimulator.ts';
import { Migration20261121000004TenantActorOutbox } from './Migration20261121000004TenantActorOutbox.ts';
import { Migration20261122000005ChangeNotifications } from './Migration20261122000005ChangeNotifications.ts';
import { Migration20261122000006ApiKeyExpiry } from './Migration20261122000006ApiKeyExpiry.ts';
import { Migration20261122000007AuditChain } from './Migration20261122000007AuditChain.ts';
import { Migration20261122000008AuditStreams } from './Migration20261122000008AuditStreams.ts';
import { Migration20261122000009TenantListing } from './Migration20261122000009TenantListing.ts';
import { Migration20261122000010LifecycleTimers } from './Migration20261122000010LifecycleTimers.ts';
import { Migration20261122000012AuditRecordedBy } from './Migration20261122000012AuditRecordedBy.ts';
import { Migration20261122000013ChainAsOwner } from './Migration20261122000013ChainAsOwner.ts';
import { Migration20261122000014OutboxDeadLetters } from './Migration20261122000014OutboxDeadLetters.ts';
import { Migration20261122000015ProvisioningInvites } from './Migration20261122000015ProvisioningInvites.ts';
import { Migration20261124000016ChainHeadOfChainedRows } from './Migration20261124000016ChainHeadOfChainedRows.ts';
import { Migration20261126000017AuditStreamSecretsSealed } from './Migration20261126000017AuditStreamSecretsSealed.ts';
import { Migration20261127000018ChainTrustsNoSession } from './Migration20261127000018ChainTrustsNoSession.ts';
import { Migration20261127000019RolesAndPermissions } from './Migration20261127000019RolesAndPermissions.ts';
import { Migration20261128000020Members } from './Migration20261128000020Members.ts';
import { Migration20261128000021MemberListNotifications } from './Migration20261128000021MemberListNotifications.ts';
import { Migration20261129000022Invitations } from './Migration20261129000022Invitations.ts';
import { Migration20261129000023Domains } from './Migration20261129000023Domains.ts';

/** Versioned migrations in order; listed explicitly so they run the same from source and from a bundle. */
export const migrationsList = [
  { name: 'Migration20261121000001Initial', class: Migration20261121000001Initial },
  { name: 'Migration20261121000002CatalogSeed', class: Migration20261121000002CatalogSeed },
  { name: 'Migration20261121000003IdpSimulator', class: Migration20261121000003IdpSimulator },
  { name: 'Migration20261121000004TenantActorOutbox', class: Migration20261121000004TenantActorOutbox },
  { name: 'Migration20261122000005ChangeNotifications', class: Migration20261122000005ChangeNotifications },
  { name: 'Migration20261122000006ApiKeyExpiry', class: Migration20261122000006ApiKeyExpiry },
  { name: 'Migration20261122000007AuditChain', class: Migration20261122000007AuditChain },
  { name: 'Migration20261122000008AuditStreams', class: Migration20261122000008AuditStreams },
  { name: 'Migration20261122000009TenantListing', class: Migration20261122000009TenantListing },
  { name: 'Migration20261122000010LifecycleTimers', class: Migration20261122000010LifecycleTimers },
  { name: 'Migration20261122000012AuditRecordedBy', class: Migration20261122000012AuditRecordedBy },
  { name: 'Migration20261122000013ChainAsOwner', class: Migration20261122000013ChainAsOwner },
  { name: 'Migration20261122000014OutboxDeadLetters', class: Migration20261122000014OutboxDeadLetters },
  { name: 'Migration20261122000015ProvisioningInvites', class: Migration20261122000015ProvisioningInvites },
  { name: 'Migration20261124000016ChainHeadOfChainedRows', class: Migration20261124000016ChainHeadOfChainedRows },
  { name: 'Migration20261126000017AuditStreamSecretsSealed', class: Migration20261126000017AuditStreamSecretsSealed },
  { name: 'Migration20261127000018ChainTrustsNoSession', class: Migration20261127000018ChainTrustsNoSession },
  { name: 'Migration20261127000019RolesAndPermissions', class: Migration20261127000019RolesAndPermissions },
  { name: 'Migration20261128000020Members', class: Migration20261128000020Members },
  { name: 'Migration20261128000021MemberListNotifications', class: Migration20261128000021MemberListNotifications },
  { name: 'Migration20261129000022Invitations', class: Migration20261129000022Invitations },
  { name: 'Migration20261129000023Domains', class: Migration20261129000023Domains },
];
