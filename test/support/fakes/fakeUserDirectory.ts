import type { Account, DirectoryUser, UserDirectory } from '../../../domain/members/userDirectory.ts';

/** The identity provider's users as a test gives them; `failing` makes every lookup fail as an unreachable provider does. */
export class FakeUserDirectory implements UserDirectory {
  readonly users = new Map<string, DirectoryUser>();
  failing = false;
  lookups = 0;

  add(userId: string, email = `${userId}@example.test`, name = `User ${userId}`): DirectoryUser {
    const user = { userId, email, name };
    this.users.set(userId, user);
    return user;
  }

  async findUser(userId: string): Promise<DirectoryUser | undefined> {
    this.lookups += 1;
    if (this.failing) throw Object.assign(new Error('HTTP 503 Service Unavailable'), { kind: 'unavailable' });
    return this.users.get(userId);
  }

  async findAccount(by: { address: string } | { userId: string }): Promise<Account | undefined> {
    const user = 'userId' in by ? this.users.get(by.userId) : [...this.users.values()].find((u) => u.email === by.address.trim().toLowerCase());
    return user ? { ...user, homeTenantId: null } : undefined;
  }
}
