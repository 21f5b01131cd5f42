import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { auditStreamLag } from '../../domain/auditStreams/auditStreamLag.ts';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresAuditRepository } from '../../store/postgresAuditRepository.ts';
import { PostgresAuditStreamRepository } from '../../store/postgresAuditStreamRepository.ts';
import { testSecretBox } from '../support/testSecretBox.ts';

// The repositories as the API's scrape uses them (the runtime role), on the run's shared log: other files' streams
// lag as they do, so each case reads its own streams' entries.
let orm: Orm;
let streams: PostgresAuditStreamRepository;
let audit: PostgresAuditRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 2);
  streams = new PostgresAuditStreamRepository(orm, testSecretBox());
  audit = new PostgresAuditRepository(orm);
});
afterAll(() => orm.close());

const newStream = async (filter: { tenant_id?: string; action_prefix?: string }) => {
  const id = randomUUID();
  const stream = await streams.create({ id, url: 'https://siem.example/in', secret: 'a-signing-secret-of-some-length', filter }, { action: 'audit.stream_created', target_id: id, metadata: { url: 'https://siem.example/in', filter } }, SYSTEM_ACTOR);
  return stream;
};
const lagOf = async (streamId: string, at = new Date()) => (await auditStreamLag(streams, audit, at)).find((lag) => lag.streamId === streamId)?.oldestUndeliveredSeconds;

describe('the audit streams lag (tenant_registry_audit_stream_lag_seconds)', () => {
  it('is the age of the first event a stream takes and has not delivered, and 0 once its progress passes it', async () => {
    const tenantId = randomUUID();
    const stream = await newStream({ tenant_id: tenantId });
    const other = await newStream({ tenant_id: randomUUID() });
    expect(await lagOf(stream.id)).toBe(0);

    const event = await audit.append({ action: 'tenant.updated', tenant_id: tenantId, target_id: tenantId, target_type: 'tenant', metadata: { changes: {} } }, SYSTEM_ACTOR);
    await audit.append({ action: 'tenant.updated', tenant_id: tenantId, target_id: tenantId, target_type: 'tenant', metadata: { changes: {} } }, SYSTEM_ACTOR);
    const inAMinute = new Date(Date.parse(event.created_at) + 60_000);
    expect(await lagOf(stream.id, inAMinute)).toBeCloseTo(60, 1);
    // A stream whose filter takes none of them has nothing to wait on.
    expect(await lagOf(other.id, inAMinute)).toBe(0);

    await streams.recordProgress(stream.id, event.id, null);
    expect(await lagOf(stream.id, inAMinute)).toBeLessThan(60);
    expect(await lagOf(stream.id, inAMinute)).toBeGreaterThan(59);
    await streams.recordProgress(stream.id, event.id + 1_000_000, null);
    expect(await lagOf(stream.id, inAMinute)).toBe(0);
  });

  it('leaves a deleted stream out', async () => {
    const stream = await newStream({});
    expect(await lagOf(stream.id)).toBeDefined();
    expect(await streams.markDeleted(stream.id, { action: 'audit.stream_deleted', target_id: stream.id }, SYSTEM_ACTOR)).toBe(true);
    expect(await lagOf(stream.id)).toBeUndefined();
  });
});
