import { describe, expect, it } from 'vitest';
import { hashPassword, passwordMatches } from '../../identityProvider/simulatedPasswordHash.ts';

describe("the simulated provider's password hash", () => {
  it('is a salted scrypt hash, never the password, that matches only its own password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain('correct horse battery');
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
    expect(await passwordMatches('correct horse battery', stored)).toBe(true);
    expect(await passwordMatches('correct horse batterY', stored)).toBe(false);
    expect(await passwordMatches('', stored)).toBe(false);
  });

  it('matches nothing against a stored value of another shape', async () => {
    expect(await passwordMatches('correct horse battery', 'correct horse battery')).toBe(false);
    expect(await passwordMatches('x', 'plain$1$1$1$salt$key')).toBe(false);
  });
});
