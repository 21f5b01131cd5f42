/** A tenant's entitlement to a product. */
export interface TenantProductRecord {
  tenantId: string;
  product: string;
  enabled: boolean;
  config: Record<string, unknown>;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
