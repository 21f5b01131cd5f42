/** A user as the identity provider knows it: what a new member's record takes from it. */
export interface DirectoryUser {
  userId: string;
  email: string;
  name: string;
}

/**
 * The identity provider's users as a domain service sees them (implemented by both identity providers): a member
 * can only be made of a user the provider has (SPEC-EXTENSIONS §7: 404 otherwise).
 */
export interface UserDirectory {
  /** Undefined when the provider has no such user. */
  findUser(userId: string): Promise<DirectoryUser | undefined>;
}
