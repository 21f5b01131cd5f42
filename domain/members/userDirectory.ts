/** A user as the identity provider knows it: what a new member's record takes from it. */
export interface DirectoryUser {
  userId: string;
  email: string;
  name: string;
}

/** An account as governance judges it (domain/accounts/accountGovernance.ts): the user and the tenant that made it. */
export interface Account extends DirectoryUser {
  /** The tenant the provider's user was made for (its home tenant, the `tenant_id` attribute); null when none. */
  homeTenantId: string | null;
}

/**
 * The identity provider's users as a domain service sees them (implemented by both identity providers): a member
 * can only be made of a user the provider has (SPEC-EXTENSIONS §7: 404 otherwise).
 */
export interface UserDirectory {
  /** Undefined when the provider has no such user. */
  findUser(userId: string): Promise<DirectoryUser | undefined>;
  /** The account holding the address (as e-mail or username), or the one of this id; undefined when there is none. */
  findAccount(by: { address: string } | { userId: string }): Promise<Account | undefined>;
}
