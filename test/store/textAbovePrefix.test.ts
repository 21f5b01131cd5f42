import { describe, expect, it } from 'vitest';
import { textAbovePrefix } from '../../store/textAbovePrefix.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
/** Byte-wise order, as text_pattern_ops compares. */
const below = (a: string, b: string) => Buffer.compare(bytes(a), bytes(b)) < 0;

describe('textAbovePrefix', () => {
  it('raises the last code point: every text starting with the prefix is below it, and the prefix itself is not', () => {
    for (const [prefix, texts] of [
      ['acme', ['acme', 'acme-corp', 'acmez', 'acme\u{10ffff}x', 'acme日本']],
      ['bench-00012', ['bench-00012', 'bench-000129', 'bench-00012x']],
      ['日', ['日', '日本']],
      ['a😀', ['a😀', 'a😀b']],
    ] as const) {
      const above = textAbovePrefix(prefix)!;
      for (const text of texts) expect(below(text, above)).toBe(true);
      expect(below(prefix, above)).toBe(true);
    }
    expect(textAbovePrefix('acme')).toBe('acmf');
    expect(textAbovePrefix('ab\u{d7ff}')).toBe('ab\u{e000}');
  });

  it('texts that do not start with the prefix fall outside [prefix, above)', () => {
    const above = textAbovePrefix('acme')!;
    for (const text of ['acmf', 'acn', 'b', 'acmf-corp']) expect(below(text, above)).toBe(false);
    for (const text of ['acm', 'abzz', 'a']) expect(below(text, 'acme')).toBe(true);
  });

  it('has no answer for an empty prefix or one ending in the last code point', () => {
    expect(textAbovePrefix('')).toBeUndefined();
    expect(textAbovePrefix('a\u{10ffff}')).toBeUndefined();
  });
});
