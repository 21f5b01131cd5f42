/**
 * The listings whose pages the registry cache keeps (domain/reads/keptListing.ts), by name: a listing's pages go
 * together at any change of what it lists.
 */

/** The tenants' listing: one, whatever its filters, since any tenant's change may move it. */
export const TENANT_LISTING = 'tenants';
/** A tenant's API keys' listing. */
export const apiKeyListing = (tenantId: string) => `apiKeys:${tenantId}`;
/** A tenant's invitations' listing. */
export const invitationListing = (tenantId: string) => `invitations:${tenantId}`;
