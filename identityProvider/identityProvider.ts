import type { MembershipStatus } from '../domain/members/memberRecord.ts';
import type { SignInPolicy } from '../domain/signIn/signInPolicy.ts';
import type { UserDirectory } from '../domain/members/userDirectory.ts';
import type { IdpFailureKind } from '../domain/provisioning/provisioningVocabulary.ts';
import type { SamlCertificate } from '../domain/sso/ssoConnectionRecord.ts';
import type { SsoServiceProvider } from '../domain/sso/ssoServiceProvider.ts';

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

/**
 * The realm role provisioning grants the tenant's administrator, and the actions its invite asks for (SPEC:
 * provisioning). No claim derives from the role: a tenant's administrators are its members with role IT_ADMIN.
 */
export const IT_ADMIN_ROLE = 'IT_ADMIN';
export const INVITE_ACTIONS = ['VERIFY_EMAIL', 'UPDATE_PASSWORD'];

/** The invitation an invite link opens, by the secret the registry holds for its current link. */
export interface InviteLink {
  invitationId: string;
  nonce: string;
  sendEmail: boolean;
  /** The alias (the tenant's slug) of the organization the invitation joins: its e-mail names it. */
  organization: string;
}

interface SsoProviderCommon {
  alias: string;
  /** Verified domains of the tenant whose users are sent to it. */
  domains: string[];
  enabled: boolean;
}

/** An OIDC SSO connection as the provider's identity provider is made of it. */
export interface OidcSsoProvider extends SsoProviderCommon {
  protocol: 'oidc';
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  userInfoUrl: string | null;
  clientId: string;
  clientSecret: string;
}

/**
 * A SAML SSO connection as the provider's identity provider is made of it (SPEC-EXTENSIONS §14): the customer's IdP
 * from its metadata, and the service provider values the registry answered the customer (`sp`), which the provider's
 * broker must be: responses are accepted only for that audience, at that ACS URL.
 */
export interface SamlSsoProvider extends SsoProviderCommon {
  protocol: 'saml';
  /** The IdP's entity id: the Issuer its responses must name. */
  idpEntityId: string;
  /** Where sign-in requests go, by `ssoBinding`. */
  ssoUrl: string;
  ssoBinding: 'post' | 'redirect';
  /** Whether the IdP asks for signed AuthnRequests. */
  wantAuthnRequestsSigned: boolean;
  /** Every signing certificate the metadata names now; a response signed by any other is refused. */
  certificates: SamlCertificate[];
  serviceProvider: Pick<SsoServiceProvider, 'entityId' | 'acsUrl' | 'metadataUrl'>;
}

/** An SSO connection as the provider's identity provider is made of it. */
export type SsoProvider = OidcSsoProvider | SamlSsoProvider;

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
export interface IdentityProvider extends UserDirectory {
  /** Organization with alias = slug and attribute tenant_id = tenantId. */
  ensureOrganization(tenant: TenantRef): Promise<{ organizationId: string }>;
  /** User with username/email = email, attribute tenant_id = tenantId, realm role IT_ADMIN, required actions VERIFY_EMAIL and UPDATE_PASSWORD. */
  ensureUser(tenant: TenantRef, email: string, name: string | undefined): Promise<{ userId: string }>;
  /** Membership of the user in the organization; already a member is success. */
  ensureMembership(organizationId: string, userId: string): Promise<void>;
  /** Takes the user out of the organization; not a member (any more) is success. */
  removeMembership(organizationId: string, userId: string): Promise<void>;
  /**
   * Writes one tenant's value of the user's TENANT_MEMBERSHIPS_ATTRIBUTE (null: removes it), leaving the other
   * tenants' values and every other attribute as they are, except the top-level claim attributes when the tenant is
   * the user's home tenant (see userAttributesWith). Removing from a user the provider does not have is success.
   */
  pushMembership(userId: string, tenantSlug: string, membership: PushedMembership | null): Promise<void>;
  /**
   * Sends the e-mail with VERIFY_EMAIL and UPDATE_PASSWORD and returns the action-token URL it carries. With `link`
   * the URL opens that invitation only while the registry holds its nonce as current (a resend, revocation or
   * expiry closes it), an account that exists already is mailed a sign-in to accept instead (SPEC-EXTENSIONS §13),
   * and without `sendEmail` nothing is mailed: the link is only answered.
   */
  sendInvite(userId: string, link?: InviteLink): Promise<{ inviteUrl: string }>;
  /**
   * The user an invitation goes to: the one holding the e-mail, whichever tenants it belongs to (a person may be a
   * member of several), or a new one with the invite's required actions and this tenant as its home tenant.
   */
  ensureInvitedUser(tenant: TenantRef, email: string): Promise<{ userId: string }>;
  /** Sets the tenant's organization's domains to these, each marked verified (the registry verified them). */
  setOrganizationDomains(tenant: TenantRef, domains: readonly string[]): Promise<void>;
  /**
   * Makes the tenant's organization's identity provider `provider.alias` (OIDC or SAML, by `provider.protocol`) match
   * the SSO connection: made or updated, linked to the organization with its domains so a user at one of them is sent
   * to it, enabled or not.
   */
  putSsoProvider(tenant: TenantRef, provider: SsoProvider): Promise<void>;
  /**
   * The service provider values of the identity provider `alias`, whether it exists yet or not: what the customer
   * enters at its own identity provider (the connection's `sp`), the SAML entity id and ACS URL among them.
   */
  ssoServiceProvider(alias: string): SsoServiceProvider;
  /** Deletes the identity provider (gone already is success). */
  removeSsoProvider(alias: string): Promise<void>;
  /**
   * The user a directory's SCIM user becomes: the one holding the e-mail (whichever tenants it belongs to), or a new
   * one, enabled, without required actions (it signs in through the customer's own provider); `created` says which.
   */
  ensureDirectoryUser(tenant: TenantRef, email: string, name: string): Promise<{ userId: string; created: boolean }>;
  /** Enables or disables the user (a disabled user gets no token; its sessions are ended); an unknown user is `rejected`. */
  setUserEnabled(userId: string, enabled: boolean): Promise<void>;
  /** Whether the user is linked to the identity provider `alias` (has signed in through it); an unknown user is not. */
  signedInThrough(userId: string, alias: string): Promise<boolean>;
  /** The user ids of the tenant's organization members (empty when the tenant has no organization). */
  listTenantUserIds(tenantId: string): Promise<string[]>;
  /** The organizations a user belongs to. Unknown user: empty list. */
  memberships(userId: string): Promise<IdpMembership[]>;
  /** Reachability (server-info). */
  ping(): Promise<void>;
}

/**
 * The user attribute that carries the user's claims per tenant, one JSON value (a PushedMembership) per tenant: what
 * the claims mapper's fallback reads, with the registry down, for the organization a token is for
 * (keycloak/extension: TenantClaims.fromPushedMemberships). Declared in the realm's user profile, admin-only.
 */
export const TENANT_MEMBERSHIPS_ATTRIBUTE = 'tenant_memberships';

/**
 * One tenant's claims of one user, as pushed into its attributes, with what the extension needs to decide a sign-in
 * alone while the registry cannot be asked (SPEC-EXTENSIONS §15; domain/signIn/signInDecision.ts is the rule).
 */
export interface PushedMembership {
  tenant_id: string;
  tenant_slug: string;
  plan: string;
  tenant_status: string;
  products: string[];
  org_roles: string[];
  permissions: string[];
  membership_status: MembershipStatus;
  /** The member may sign in without the tenant's SSO when the tenant requires it. */
  break_glass: boolean;
  /** The tenant's sign-in policy, defaults filled in. */
  sign_in: SignInPolicy;
  /** Clients of the products the tenant holds a current entitlement to. */
  entitled_clients: string[];
  /** Clients of the other products: refused (not_entitled). A client in neither list belongs to no product. */
  refused_clients: string[];
  /** Clients of the products that chose `fail: closed`: refused while the registry cannot be asked. */
  fail_closed_clients: string[];
}

/** The attribute's values with this tenant's replaced (or removed, for null), ordered by tenant slug. */
export function tenantMembershipsWith(values: readonly string[], tenantSlug: string, membership: PushedMembership | null): string[] {
  const others = values.filter((value) => slugOfPushed(value) !== tenantSlug);
  const next = membership ? [...others, JSON.stringify(membership)] : others;
  return next.sort((a, b) => (slugOfPushed(a) ?? '').localeCompare(slugOfPushed(b) ?? ''));
}

function slugOfPushed(value: string): string | undefined {
  try {
    const parsed = JSON.parse(value) as { tenant_slug?: unknown };
    return typeof parsed.tenant_slug === 'string' ? parsed.tenant_slug : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The claims of one tenant as single attributes at the top level: what older mappers and the mapper's fallback
 * without an organization read. They hold the user's home tenant only (see userAttributesWith).
 */
const HOME_TENANT_ATTRIBUTES = ['tenant_id', 'tenant_slug', 'plan', 'tenant_status', 'products', 'org_roles'] as const;

/**
 * The user's attributes after pushing one tenant's membership: that tenant's value of TENANT_MEMBERSHIPS_ATTRIBUTE
 * replaced (removed for null) and, for the user's home tenant only, the top-level claim attributes set to it
 * (cleared for null), so a user of several tenants does not have them flip between tenants. Attributes left without
 * values are dropped, as Keycloak drops them.
 */
export function userAttributesWith(
  attributes: Readonly<Record<string, string[]>>,
  tenantSlug: string,
  membership: PushedMembership | null,
): Record<string, string[]> {
  const values = attributes[TENANT_MEMBERSHIPS_ATTRIBUTE] ?? [];
  const next: Record<string, string[]> = { ...attributes, [TENANT_MEMBERSHIPS_ATTRIBUTE]: tenantMembershipsWith(values, tenantSlug, membership) };
  if (isHomeTenant(attributes, tenantSlug, membership ?? pushedValueOf(values, tenantSlug))) Object.assign(next, homeTenantAttributes(membership));
  return Object.fromEntries(Object.entries(next).filter(([, list]) => list.length > 0));
}

/** Two attribute maps with the same values, an attribute without values being the same as one absent. */
export function sameAttributes(a: Readonly<Record<string, string[]>>, b: Readonly<Record<string, string[]>>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => JSON.stringify(a[key] ?? []) === JSON.stringify(b[key] ?? []));
}

/**
 * The home tenant is the one the user's `tenant_id` attribute names (provisioning sets it on the users it creates;
 * the first tenant pushed sets it on any other): absent, the tenant pushed becomes it. A removal is matched by the
 * tenant id its earlier push recorded, else by the top-level slug.
 */
function isHomeTenant(attributes: Readonly<Record<string, string[]>>, tenantSlug: string, pushed: { tenant_id: string } | undefined): boolean {
  const home = attributes.tenant_id?.[0];
  if (home === undefined) return true;
  if (pushed) return pushed.tenant_id === home;
  return attributes.tenant_slug?.[0] === tenantSlug;
}

function homeTenantAttributes(membership: PushedMembership | null): Record<string, string[]> {
  if (!membership) return Object.fromEntries(HOME_TENANT_ATTRIBUTES.map((name) => [name, []]));
  return {
    tenant_id: [membership.tenant_id],
    tenant_slug: [membership.tenant_slug],
    plan: [membership.plan],
    tenant_status: [membership.tenant_status],
    products: membership.products,
    org_roles: membership.org_roles,
  };
}

function pushedValueOf(values: readonly string[], tenantSlug: string): { tenant_id: string } | undefined {
  for (const value of values) {
    if (slugOfPushed(value) !== tenantSlug) continue;
    const parsed = JSON.parse(value) as { tenant_id?: unknown };
    if (typeof parsed.tenant_id === 'string') return { tenant_id: parsed.tenant_id };
  }
  return undefined;
}
