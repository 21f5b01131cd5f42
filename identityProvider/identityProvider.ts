import type { Claims } from '../domain/schemas/claims.ts';
import type { IdpFailureKind } from '../workflows/tenantActor/provisioningVocabulary.ts';

/** A provider failure as a value: `kind` decides retry (only `unavailable` is retried) and lands in the audit metadata. */
export class IdpError extends Error {
  readonly kind: IdpFailureKind;
  readonly status?: number;

  constructor(kind: IdpFailureKind, message: string, status?: number) {
    super(message);
    this.name = 'IdpError';
    this.kind = kind;
    this.status = status;
  }
}

/** The realm role of the tenant's administrator, and the actions its invite asks for (SPEC: provisioning). */
export const IT_ADMIN_ROLE = 'IT_ADMIN';
export const INVITE_ACTIONS = ['VERIFY_EMAIL', 'UPDATE_PASSWORD'];

export interface TenantRef {
  tenantId: string;
  slug: string;
  name: string;
}

export interface IdpMembership {
  organizationId: string;
  /** The registry tenant the organization belongs to, from its `tenant_id` attribute; absent for foreign organizations. */
  tenantId?: string;
  alias: string;
  name: string;
  /** From the user's `org_roles` attribute (the attribute the token mappers project). */
  orgRoles: string[];
  /** Values the provider holds for the user (attribute projection); the registry overrides them for tenants it knows. */
  attributes: Record<string, string[]>;
}

/**
 * What the service needs of the identity provider. Every `ensure*` step is idempotent: it finds and reuses what an
 * earlier attempt for the same tenant created, and fails with organization_exists / user_exists when the thing
 * exists but belongs to someone else. Implemented by the Keycloak adapter and by the simulated provider.
 */
export interface IdentityProvider {
  /** Organization with alias = slug and attribute tenant_id = tenantId. */
  ensureOrganization(tenant: TenantRef): Promise<{ organizationId: string }>;
  /** User with username/email = email, attribute tenant_id = tenantId, realm role IT_ADMIN, required actions VERIFY_EMAIL and UPDATE_PASSWORD. */
  ensureUser(tenant: TenantRef, email: string, name: string | undefined): Promise<{ userId: string }>;
  /** Membership of the user in the organization; already a member is success. */
  ensureMembership(organizationId: string, userId: string): Promise<void>;
  /** Sends the e-mail with VERIFY_EMAIL and UPDATE_PASSWORD and returns the action-token URL it carries. */
  sendInvite(userId: string): Promise<{ inviteUrl: string }>;
  /** The user ids of the tenant's organization members (empty when the tenant has no organization). */
  listTenantUserIds(tenantId: string): Promise<string[]>;
  /** Writes the claim bundle into a user's attributes, in the shape the realm's token mappers project. */
  pushClaims(userId: string, claims: Claims): Promise<void>;
  /** The organizations a user belongs to. Unknown user: empty list. */
  memberships(userId: string): Promise<IdpMembership[]>;
  /** Reachability (server-info). */
  ping(): Promise<void>;
}

/** The attribute layout pushed into users: one attribute per claim, multi-valued for lists (Keycloak's user attribute model). */
export function claimsAsUserAttributes(claims: Claims): Record<string, string[]> {
  return {
    tenant_id: [claims.tenant_id],
    tenant_slug: [claims.tenant_slug],
    plan: [claims.plan],
    tenant_status: [claims.tenant_status],
    products: claims.products ?? [],
    // org_roles are the user's own: only written when the bundle carries them, never cleared by a tenant push.
    ...(claims.org_roles ? { org_roles: claims.org_roles } : {}),
  };
}
