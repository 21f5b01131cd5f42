import { describe, expect, it } from 'vitest';
import { decodeMemberCursor } from '../../../domain/members/memberListCursor.ts';
import type { MemberRecord, MemberStatus } from '../../../domain/members/memberRecord.ts';
import type { ListedMember } from '../../../domain/members/memberRepository.ts';
import { toMember } from '../../../domain/members/memberResponse.ts';
import { TenantMemberList } from '../../../domain/members/tenantMemberList.ts';

const TENANT = '00000000-0000-4000-8000-000000000001';
const AT = new Date('2026-11-28T10:00:00.123Z');

/** A listed member as the store reads it: the lowered e-mail and name given as the store's `lower()` gave them. */
function listed(userId: string, email: string, name: string, extra: { status?: MemberStatus; roles?: string[] } = {}): ListedMember {
  const member: MemberRecord = {
    tenantId: TENANT, userId, email, name, roles: extra.roles ?? ['MEMBER'], permissions: [], status: extra.status ?? 'active', source: 'registry', createdAt: AT, updatedAt: AT,
  };
  return { member, position: { email: email.toLowerCase(), userId }, lowerName: name.toLowerCase() };
}

type Page = { items: { user_id: string }[]; next_cursor?: string };
const ids = (json: Buffer | undefined) => (JSON.parse(json!.toString()) as Page).items.map((m) => m.user_id);

describe('TenantMemberList', () => {
  const members = [
    listed('u1', 'ada@x.test', 'Ada', { roles: ['IT_ADMIN'] }),
    listed('u2', 'bob@x.test', 'Zed Bob', { status: 'inactive' }),
    listed('u1', 'bob@y.test', 'Bob Y'),
    listed('u3', 'bob@y.test', 'Bob Y again', { status: 'pending', roles: ['IT_ADMIN', 'MEMBER'] }),
    listed('u4', 'd_n@x.test', 'Under Score'),
    listed('u5', 'dan@x.test', 'DOROTHY Ünal'),
  ];
  const list = new TenantMemberList(members);

  it('answers the members serialised as toMember, with the MemberList body of JSON.stringify', () => {
    const json = list.pageJson({}, undefined, 2)!.toString();
    expect(json).toBe(JSON.stringify({ items: members.slice(0, 2).map((m) => toMember(m.member)), next_cursor: JSON.parse(json).next_cursor }));
    expect(list.pageJson({}, undefined, 6)!.toString()).toBe(JSON.stringify({ items: members.map((m) => toMember(m.member)) }));
    // Members apart in the list, and a name beyond ASCII: slices of the UTF-8 answers joined as JSON.stringify joins them.
    const apart = list.pageJson({ status: 'active', role: 'MEMBER' }, undefined, 10)!.toString();
    expect(apart).toBe(JSON.stringify({ items: members.filter((m) => m.member.status === 'active' && m.member.roles.includes('MEMBER')).map((m) => toMember(m.member)) }));
  });

  it('a page of limit members carries the cursor of its last one only when another member passes the filter', () => {
    const page = JSON.parse(list.pageJson({}, undefined, 3)!.toString()) as Page;
    expect(page.items.map((m) => m.user_id)).toEqual(['u1', 'u2', 'u1']);
    expect(decodeMemberCursor(page.next_cursor!)).toEqual({ email: 'bob@y.test', userId: 'u1' });
    expect((JSON.parse(list.pageJson({ status: 'inactive' }, undefined, 1)!.toString()) as Page).next_cursor).toBeUndefined();
    expect((JSON.parse(list.pageJson({ role: 'IT_ADMIN' }, undefined, 1)!.toString()) as Page).next_cursor).toBeDefined();
  });

  it('continues after the cursor: within a run of one e-mail by user id, and from a position no member has', () => {
    expect(ids(list.pageJson({}, { email: 'bob@y.test', userId: 'u1' }, 10))).toEqual(['u3', 'u4', 'u5']);
    expect(ids(list.pageJson({}, { email: 'bob@y.test', userId: 'u0' }, 10))).toEqual(['u1', 'u3', 'u4', 'u5']);
    expect(ids(list.pageJson({}, { email: 'c', userId: 'x' }, 10))).toEqual(['u4', 'u5']);
    expect(ids(list.pageJson({}, { email: '', userId: 'a' }, 10))).toHaveLength(6);
    expect(ids(list.pageJson({}, { email: 'zzz', userId: 'z' }, 10))).toEqual([]);
  });

  it('filters by status, role (any of the member’s) and q, a prefix of the lowered e-mail or name, its wildcards literal', () => {
    expect(ids(list.pageJson({ status: 'pending' }, undefined, 10))).toEqual(['u3']);
    expect(ids(list.pageJson({ role: 'IT_ADMIN' }, undefined, 10))).toEqual(['u1', 'u3']);
    expect(ids(list.pageJson({ role: 'MEMBER', status: 'active' }, undefined, 10))).toEqual(['u1', 'u4', 'u5']);
    expect(ids(list.pageJson({ role: 'No_such_role' }, undefined, 10))).toEqual([]);
    expect(ids(list.pageJson({ prefix: 'BOB' }, undefined, 10))).toEqual(['u2', 'u1', 'u3']);
    expect(ids(list.pageJson({ prefix: 'zed' }, undefined, 10))).toEqual(['u2']);
    expect(ids(list.pageJson({ prefix: 'd_' }, undefined, 10))).toEqual(['u4']);
    expect(ids(list.pageJson({ prefix: 'd%' }, undefined, 10))).toEqual([]);
    expect(ids(list.pageJson({ prefix: 'Do' }, undefined, 10))).toEqual(['u5']);
  });

  it('leaves a q= with characters beyond ASCII to the store, whose lower() alone lowers them as it does', () => {
    expect(list.pageJson({ prefix: 'É' }, undefined, 10)).toBeUndefined();
    expect(list.pageJson({ prefix: 'é' }, undefined, 10)).toBeUndefined();
  });

  it('compares positions in code-point order, as the store does in bytes: characters above U+FFFF after U+E000–U+FFFF', () => {
    // The order the store reads: U+FF41 (fullwidth a) before U+1F600, though JavaScript's < says otherwise.
    const wide = new TenantMemberList([listed('a', '\uff41@x.test', 'A'), listed('b', '\u{1f600}@x.test', 'B'), listed('c', '\u{1f600}@x.test', 'C')]);
    expect('\u{1f600}' < '\uff41').toBe(true);
    expect(ids(wide.pageJson({}, { email: '\uff41@x.test', userId: 'a' }, 10))).toEqual(['b', 'c']);
    expect(ids(wide.pageJson({}, { email: '\u{1f600}@x.test', userId: 'b' }, 10))).toEqual(['c']);
    expect(ids(wide.pageJson({}, { email: '\uffff', userId: 'a' }, 10))).toEqual(['b', 'c']);
  });

  it('keeps a page once answered: the same query answers the same bytes again, any other query its own page', () => {
    const fresh = new TenantMemberList(members);
    const first = fresh.pageJson({ role: 'IT_ADMIN' }, undefined, 1)!;
    expect(fresh.pageJson({ role: 'IT_ADMIN' }, undefined, 1)).toBe(first);
    for (const [filter, after, limit] of [
      [{ role: 'IT_ADMIN' }, undefined, 2],
      [{ role: 'MEMBER' }, undefined, 1],
      [{ role: 'IT_ADMIN', status: 'pending' }, undefined, 1],
      [{ role: 'IT_ADMIN', prefix: 'bob' }, undefined, 1],
      [{ role: 'IT_ADMIN' }, { email: 'ada@x.test', userId: 'u1' }, 1],
    ] as const) {
      const page = fresh.pageJson(filter, after, limit)!;
      expect(page.equals(first), JSON.stringify([filter, after, limit])).toBe(false);
      expect(page.toString()).toBe(list.pageJson(filter, after, limit)!.toString());
    }
  });

  it('keeps pages weighing at most what the list\'s own answers do (64 KB for a small list), the oldest going first', () => {
    const many = Array.from({ length: 600 }, (_, i) => listed(`u${String(i).padStart(3, '0')}`, `m${String(i).padStart(3, '0')}@x.test`, 'N'.repeat(100)));
    const large = new TenantMemberList(many);
    const whole = large.pageJson({}, undefined, 600)!.length;
    expect(whole).toBeGreaterThan(64 * 1024);
    // Pages of 200 members: about a third of the list each, so three are kept and a fourth pushes out the first.
    const pageAt = (i: number) => large.pageJson({}, i === 0 ? undefined : { email: `m${String(i * 150 - 1).padStart(3, '0')}@x.test`, userId: 'z' }, 200)!;
    const firstPage = pageAt(0);
    expect(pageAt(0)).toBe(firstPage);
    for (let i = 1; i <= 3; i += 1) pageAt(i);
    const again = pageAt(0);
    expect(again).not.toBe(firstPage);
    expect(again.equals(firstPage)).toBe(true);
  });
});
