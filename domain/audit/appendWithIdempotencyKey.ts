import { createHash } from 'node:crypto';
import { conflict, invalidInput } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditAppend } from '../schemas/audit.ts';
import type { RenderedAuditRow } from './auditEventRow.ts';
import type { AuditRepository } from './auditRepository.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** JSON with object keys sorted at every level, so one body has one text whatever order its keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * POST /v1/audit with an Idempotency-Key: the same key (per caller) within 24 hours answers the first event again and
 * appends nothing; the same key with another body is a conflict. Keys belong to the authenticated caller (or, with
 * authentication off, to everyone alike), so one client's keys cannot collide with another's.
 */
export async function appendWithIdempotencyKey(
  audit: AuditRepository,
  key: string,
  event: AuditAppend,
  meta: RequestMeta,
): Promise<{ event: RenderedAuditRow; replayed: boolean }> {
  if (key.length < 1 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) throw invalidInput(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  const requestHash = createHash('sha256').update(canonicalJson(event)).digest('hex');
  const outcome = await audit.appendIdempotent(meta.actorId ?? '', key, requestHash, event, meta);
  if ('conflict' in outcome) throw conflict('this Idempotency-Key was used with a different request within the last 24 hours');
  return outcome;
}
