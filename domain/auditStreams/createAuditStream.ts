import { randomUUID } from 'node:crypto';
import { invalidInput } from '../errors.ts';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditStreamCreate } from '../schemas/auditStream.ts';
import type { AuditStreamRecord } from './auditStreamRepository.ts';
import type { RegistryContext } from '../registryContext.ts';

/**
 * A stream may point only at http(s) URLs, and, when AUDIT_STREAM_ALLOWED_HOSTS is set, only at those hosts (exact
 * host names, case-insensitive), so a caller cannot make the registry POST the audit log to a place of its choosing.
 */
export function checkStreamTarget(url: string, allowedHosts: string[] | undefined): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidInput('url must be an absolute http or https URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidInput('url must be an absolute http or https URL');
  if (parsed.username || parsed.password) throw invalidInput('url must not carry credentials; the secret signs every delivery');
  if (allowedHosts && !allowedHosts.includes(parsed.hostname.toLowerCase())) {
    throw invalidInput(`url host ${parsed.hostname} is not in AUDIT_STREAM_ALLOWED_HOSTS`);
  }
}

/** The stream and its audit event in one commit; then its delivery starts (now, or at the reconciler's next sweep). */
export async function createAuditStream(
  { stores, effects }: RegistryContext,
  input: AuditStreamCreate,
  allowedHosts: string[] | undefined,
  meta: RequestMeta,
): Promise<AuditStreamRecord> {
  checkStreamTarget(input.url, allowedHosts);
  const id = randomUUID();
  const filter = input.filter ?? {};
  const stream = await stores.auditStreams.create(
    { id, url: input.url, secret: input.secret, filter },
    { action: 'audit.stream_created', target_id: id, target_type: 'audit_stream', target_name: new URL(input.url).host, metadata: { url: input.url, filter } },
    meta,
  );
  await effects.streamCreated(stream);
  return stream;
}
