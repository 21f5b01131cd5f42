/** Up to this many characters a kept answer stays text; longer ones are kept as their UTF-8 bytes. */
export const KEPT_AS_TEXT_AT_MOST = 2_048;

/**
 * A whole JSON answer in the form that is cheapest to send again and again. Node writes its headers and a text body
 * in one write, but a text is measured and encoded on every answer; bytes go out as they are, beside the headers in
 * a second buffer of a writev. On a bare Koa app a short answer was cheaper as text and a long one as bytes; the
 * threshold sits between the two (docs/performance.md).
 */
export function keptAnswer(json: string): string | Buffer {
  return json.length <= KEPT_AS_TEXT_AT_MOST ? json : Buffer.from(json);
}

/** What a kept answer weighs, in bytes of UTF-8 (counted when it is kept, never when it is read). */
export const keptAnswerBytes = (answer: string | Buffer): number => (typeof answer === 'string' ? Buffer.byteLength(answer) : answer.length);
