import { encodeMemberCursor } from './memberListCursor.ts';
import { compareListPositions } from './memberListOrder.ts';
import type { MemberStatus } from './memberRecord.ts';
import type { ListedMember, MemberListFilter, MemberListPosition } from './memberRepository.ts';
import { MEMBER_LIST_HEAD, memberListTail, toMember } from './memberResponse.ts';

/** One member as the list holds it: what the filters and the cursor compare. */
interface Entry {
  position: MemberListPosition;
  lowerName: string;
  status: MemberStatus;
  roles: readonly string[];
}

/** A q= of ASCII alone is lowered here as the store lowers it: every locale but the Turkic ones lowers A–Z to a–z. */
const ASCII = /^[\x00-\x7f]*$/;
const HEAD = Buffer.from(MEMBER_LIST_HEAD);
const COMMA = Buffer.from(',');
const LAST_PAGE_TAIL = Buffer.from(memberListTail(undefined));

/**
 * A tenant's members in the listing's order (lowered e-mail, then user id, in the store's byte order), each with its
 * answer serialised once: any page (filters, cursor, limit) is computed from it in memory and answered as the store's
 * page would be, byte for byte (domain/members/listMembers.ts; test/api/members/memberRoutes.test.ts compares them).
 * The e-mails and names are lowered by the store when the list is read, so they match as its `lower()` does.
 *
 * The answers are one UTF-8 buffer, `JSON.stringify(toMember(m))` of each member joined by commas: a page's members
 * that follow one another in the list are one slice of it, copied once into the body, which is written as it is. A
 * body joined from each member's string, encoded to UTF-8 at every write, answered fewer pages a second
 * (docs/performance.md, "The members list").
 *
 * A page once answered is kept with the list, by its query: the list is replaced at any change of the tenant's members,
 * so a kept page is as fresh as the list, and answering it again costs no copy (a body above 4 KB was a new native
 * buffer a request: a malloc, a backing store for the collector to sweep). The kept pages weigh at most what the list's
 * own answers do, or 64 KB for a small list; the oldest go first.
 */
export class TenantMemberList {
  readonly #entries: Entry[];
  readonly #json: Buffer;
  /** Where each member's answer starts and ends in `#json`. */
  readonly #starts: Uint32Array;
  readonly #ends: Uint32Array;
  /** Pages answered lately, by their query, and what they weigh together. */
  readonly #pages = new Map<string, Buffer>();
  #pageBytes = 0;

  /** `listed` in the listing's order, as `MemberRepository.listing` reads it. */
  constructor(listed: readonly ListedMember[]) {
    this.#entries = listed.map(({ member, position, lowerName }) => ({ position, lowerName, status: member.status, roles: member.roles }));
    const answers = listed.map(({ member }) => JSON.stringify(toMember(member)));
    this.#json = Buffer.from(answers.join(','));
    this.#starts = new Uint32Array(answers.length);
    this.#ends = new Uint32Array(answers.length);
    let at = 0;
    for (const [i, answer] of answers.entries()) {
      this.#starts[i] = at;
      at += Buffer.byteLength(answer);
      this.#ends[i] = at;
      at += COMMA.length;
    }
  }

  get size(): number {
    return this.#entries.length;
  }

  /**
   * The MemberList body of the page: up to `limit` members after `after` that pass `filter`, and the cursor of the
   * next page when one more passes. Undefined for a q= with characters beyond ASCII, which only the store's `lower()`
   * lowers as the store does (its locale decides): the store answers that one.
   */
  pageJson(filter: MemberListFilter, after: MemberListPosition | undefined, limit: number): Buffer | undefined {
    if (filter.prefix !== undefined && !ASCII.test(filter.prefix)) return undefined;
    const query = JSON.stringify([limit, after?.email, after?.userId, filter.status, filter.role, filter.prefix]);
    const kept = this.#pages.get(query);
    if (kept !== undefined) return kept;
    const page = this.#page(filter, after, limit);
    this.#keep(query, page);
    return page;
  }

  #keep(query: string, page: Buffer): void {
    const bound = Math.max(this.#json.length, 64 * 1024);
    if (page.length > bound) return;
    for (const [oldest, held] of this.#pages) {
      if (this.#pageBytes + page.length <= bound) break;
      this.#pages.delete(oldest);
      this.#pageBytes -= held.length;
    }
    this.#pages.set(query, page);
    this.#pageBytes += page.length;
  }

  #page(filter: MemberListFilter, after: MemberListPosition | undefined, limit: number): Buffer {
    const prefix = filter.prefix?.toLowerCase();
    const { role, status } = filter;
    const entries = this.#entries;
    const chunks: Buffer[] = [HEAD];
    let count = 0;
    /** The run of consecutive members the page has taken last, as indices [runStart, runEnd]. */
    let runStart = -1;
    let runEnd = -1;
    for (let i = after === undefined ? 0 : this.#firstAfter(after); i < entries.length; i += 1) {
      const entry = entries[i]!;
      if (status !== undefined && entry.status !== status) continue;
      if (role !== undefined && !entry.roles.includes(role)) continue;
      if (prefix !== undefined && !entry.position.email.startsWith(prefix) && !entry.lowerName.startsWith(prefix)) continue;
      // One member past the page tells that another page follows.
      if (count === limit) return this.#body(chunks, runStart, runEnd, Buffer.from(memberListTail(encodeMemberCursor(entries[runEnd]!.position))));
      if (runStart >= 0 && runEnd === i - 1) {
        runEnd = i;
      } else {
        if (runStart >= 0) chunks.push(this.#slice(runStart, runEnd), COMMA);
        runStart = i;
        runEnd = i;
      }
      count += 1;
    }
    return this.#body(chunks, runStart, runEnd, LAST_PAGE_TAIL);
  }

  #body(chunks: Buffer[], runStart: number, runEnd: number, tail: Buffer): Buffer {
    if (runStart >= 0) chunks.push(this.#slice(runStart, runEnd));
    chunks.push(tail);
    return Buffer.concat(chunks);
  }

  /** The answers of members `first` to `last`, with the commas between them. */
  #slice(first: number, last: number): Buffer {
    return this.#json.subarray(this.#starts[first], this.#ends[last]);
  }

  /** The index of the first member after `after` (binary search: the entries are in the listing's order). */
  #firstAfter(after: MemberListPosition): number {
    let low = 0;
    let high = this.#entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareListPositions(this.#entries[middle]!.position, after) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}
