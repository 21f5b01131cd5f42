import { describe, expect, it } from 'vitest';
import { KEPT_AS_TEXT_AT_MOST, keptAnswer, keptAnswerBytes } from '../../../domain/reads/keptAnswer.ts';

describe('keptAnswer', () => {
  it('keeps an answer of up to 2,048 characters as the text itself', () => {
    const json = JSON.stringify({ items: ['x'.repeat(KEPT_AS_TEXT_AT_MOST - 14)] });
    expect(json).toHaveLength(KEPT_AS_TEXT_AT_MOST);
    expect(keptAnswer(json)).toBe(json);
  });

  it('keeps a longer answer as its UTF-8 bytes, the same JSON', () => {
    const json = JSON.stringify({ items: ['Zoë'.repeat(KEPT_AS_TEXT_AT_MOST)] });
    const kept = keptAnswer(json);
    expect(Buffer.isBuffer(kept)).toBe(true);
    expect(kept.toString('utf8')).toBe(json);
  });

  it('weighs text and bytes alike: the UTF-8 bytes of the answer', () => {
    expect(keptAnswerBytes('{"name":"Zoë"}')).toBe(15);
    expect(keptAnswerBytes(Buffer.from('{"name":"Zoë"}'))).toBe(15);
  });
});
