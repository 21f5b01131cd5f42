import { randomUUID } from 'node:crypto';
import type { RequestMeta } from '../requestMeta.ts';
import type { AuditStreamCreate } from '../schemas/auditStream.ts';
import type { AuditStreamRecord } from './auditStreamRepository.ts';
import type { RegistryContext } from '../registryContext.ts';
import { checkStreamTarget } from './checkStreamTarget.ts';
import type { StreamTargets } from './streamTargets.ts';

/** The stream and its audit event in one commit; then its delivery starts (now, or at the reconciler's next sweep). */
export async function createAuditStream(
  { stores, effects }: RegistryContext,
  input: AuditStreamCreate,
  targets: StreamTargets,
  meta: RequestMeta,
): Promise<AuditStreamRecord> {
  await checkStreamTarget(input.url, targets);
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
