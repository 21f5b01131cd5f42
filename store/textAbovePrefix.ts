/**
 * The least text above every text that starts with `prefix` in byte-wise (UTF-8, code point) order: the prefix with
 * its last code point raised by one. Undefined for an empty prefix or one ending in the last code point.
 */
export function textAbovePrefix(prefix: string): string | undefined {
  const points = [...prefix];
  const last = points.pop()?.codePointAt(0);
  if (last === undefined || last >= 0x10ffff) return undefined;
  // Code points D800-DFFF (surrogates) are not characters: the next one after D7FF is E000.
  return points.join('') + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
}
