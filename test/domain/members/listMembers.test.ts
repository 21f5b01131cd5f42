import { describe, expect, it } from 'vitest';
import { listMembers } from '../../../domain/members/listMembers.ts';
import { encodeMemberCursor } from '../../../domain/members/memberListCursor.ts';
import { inMemoryRegistry } from '../../support/fakes/inMemoryRegistry.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const MISSING = '00000000-0000-4000-8000-00000000000f';

function setup(count: number) {
  const registry = inMemoryRegistry();
  registry.roles.addTenant(TENANT);
  for (let i = 0; i < count; i += 1) {
    registry.members.seed({ tenantId: TENANT, userId: `u${String(i).padStart(3, '0')}`, email: `m${i % 7}@example.test`, name: `M ${i}`, roles: ['MEMBER'], status: 'active', source: 'registry' });
  }
  return registry;
}

describe('listMembers', () => {
  it('answers limit members and a cursor; following the cursors walks every member once, the last page without one', async () => {
    const registry = setup(23);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listMembers(registry, TENANT, { limit: 5, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((m) => m.userId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual((await listMembers(registry, TENANT, { limit: 500 })).items.map((m) => m.userId));
    expect(new Set(seen).size).toBe(23);
  });

  it('takes 50 members a page when no limit is given; a page that ends the list has no cursor', async () => {
    const registry = setup(50);
    const page = await listMembers(registry, TENANT, {});
    expect(page.items).toHaveLength(50);
    expect(page.nextCursor).toBeUndefined();
  });

  it('is 404 for an unknown tenant and 400 for a cursor it did not give', async () => {
    const registry = setup(1);
    await expect(listMembers(registry, MISSING, {})).rejects.toMatchObject({ code: 'not_found', message: 'tenant not found' });
    for (const cursor of ['x', Buffer.from('["a"]').toString('base64url'), Buffer.from('{"email":"a"}').toString('base64url'), Buffer.from('["a",""]').toString('base64url')]) {
      await expect(listMembers(registry, TENANT, { cursor }), cursor).rejects.toMatchObject({ code: 'invalid_input' });
    }
    expect((await listMembers(registry, TENANT, { cursor: encodeMemberCursor({ email: 'zzz', userId: 'z' }) })).items).toEqual([]);
  });
});
