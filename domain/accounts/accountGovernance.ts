/** What governance judges an account by: its address, the tenant that made it (if one did), the tenants it is a member of. */
export interface AccountFacts {
  email: string;
  /** The tenant whose step made the account (its home tenant in the identity provider); null when no tenant did. */
  madeByTenantId: string | null;
  /** Every tenant the account is a member of, whatever the member's status. */
  memberOfTenantIds: readonly string[];
}

/** The tenant asking: its id and the domains it has verified (SPEC-EXTENSIONS §9). */
export interface TenantFacts {
  tenantId: string;
  verifiedDomains: readonly string[];
}

const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop() ?? '';

/**
 * Whether the tenant governs the account (SPEC-EXTENSIONS §13): its address is at a domain the tenant verified, or
 * the tenant made it and it is a member of no other tenant. Only a governing tenant may, through its directory or SSO
 * connection, disable or enable the account, end its sessions or change its e-mail.
 */
export function governsAccount(tenant: TenantFacts, account: AccountFacts): boolean {
  const domain = domainOf(account.email);
  if (account.email.includes('@') && tenant.verifiedDomains.some((verified) => verified.toLowerCase() === domain)) return true;
  return account.madeByTenantId === tenant.tenantId && account.memberOfTenantIds.every((id) => id === tenant.tenantId);
}
