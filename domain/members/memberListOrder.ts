import type { MemberListPosition } from './memberRepository.ts';

/**
 * Code-point order, which for UTF-8 is the byte order the store pages in (`~<~`). JavaScript's `<` compares UTF-16
 * code units instead, which puts characters above U+FFFF (surrogate pairs) before U+E000–U+FFFF.
 */
function compareCodePoints(a: string, b: string): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i += 1) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates (0xD800–0xDFFF) move above 0xE000–0xFFFF, where their code points are.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** The listing's order: lowered e-mail, then user id, both in the store's byte order. Negative when `a` comes first. */
export function compareListPositions(a: MemberListPosition, b: MemberListPosition): number {
  return compareCodePoints(a.email, b.email) || compareCodePoints(a.userId, b.userId);
}
