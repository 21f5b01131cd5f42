import { invalidInput } from '../errors.ts';
import type { TenantListPosition } from './tenantRepository.ts';

/** The listing's cursor: the last tenant of a page as (created_at, id), opaque to callers (base64url). */
export const encodeTenantCursor = (p: TenantListPosition): string => Buffer.from(`${p.createdAt}|${p.id}`).toString('base64url');

const POSITION = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function decodeTenantCursor(cursor: string): TenantListPosition {
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number.isNaN(Date.parse(match[1]!))) throw invalidInput('cursor: must be a next_cursor of this listing');
  return { createdAt: match[1]!, id: match[2]! };
}
