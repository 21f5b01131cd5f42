/** A tenant's entitlement to a product. */
export interface TenantProductRecord {
  tenantId: string;
  product: string;
  enabled: boolean;
  config: Record<string, unknown>;
  expiresAt: Date | null;
  /** The expires_at whose passing was announced (entitlement.expired is appended once per date). */
  expiryAnnouncedFor: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
