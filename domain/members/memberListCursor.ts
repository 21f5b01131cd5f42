import { invalidInput } from '../errors.ts';
import type { MemberListPosition } from './memberRepository.ts';

/** The listing's cursor: the last member of a page as (lower-cased e-mail, user id), opaque to callers (base64url). */
export const encodeMemberCursor = (p: MemberListPosition): string => Buffer.from(JSON.stringify([p.email, p.userId])).toString('base64url');

export function decodeMemberCursor(cursor: string): MemberListPosition {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  if (
    !Array.isArray(position) ||
    position.length !== 2 ||
    typeof position[0] !== 'string' ||
    typeof position[1] !== 'string' ||
    position[1] === '' ||
    // No stored text holds U+0000: PostgreSQL refuses it as a parameter (a 500), and no cursor of ours has one.
    position.some((part: string) => part.includes('\u0000'))
  ) {
    throw invalidInput('cursor: must be a next_cursor of this listing');
  }
  // A lone surrogate reaches the store as U+FFFD (UTF-8 has none): the page in memory compares what the store would.
  return { email: position[0].toWellFormed(), userId: position[1].toWellFormed() };
}
