import { ApiKeyEntity } from './apiKeyEntity.ts';
import { CatalogProductEntity } from './catalogProductEntity.ts';
import { TenantEntity } from './tenantEntity.ts';
import { TenantProductEntity } from './tenantProductEntity.ts';

/** Every entity the ORM maps; the audit log is written with SQL only (store/postgresAuditRepository.ts). */
export const entities = [TenantEntity, TenantProductEntity, CatalogProductEntity, ApiKeyEntity];
