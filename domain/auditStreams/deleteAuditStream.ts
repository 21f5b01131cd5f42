import { notFound } from '../errors.ts';
import type { RegistryContext } from '../registryContext.ts';
import type { RequestMeta } from '../requestMeta.ts';

/** Marks the stream deleted with its audit event; then its delivery is cancelled (or stops at its next step). */
export async function deleteAuditStream({ stores, effects }: RegistryContext, id: string, meta: RequestMeta): Promise<void> {
  const deleted = await stores.auditStreams.markDeleted(id, { action: 'audit.stream_deleted', target_id: id, target_type: 'audit_stream' }, meta);
  if (!deleted) throw notFound('audit stream');
  await effects.streamDeleted(id);
}
