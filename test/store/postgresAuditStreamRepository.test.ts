import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresAuditStreamRepository } from '../../store/postgresAuditStreamRepository.ts';
import { testSecretBox } from '../support/testSecretBox.ts';

const SECRET = 'siem-signing-secret-0123456789';

// The repository as the service runs it (the runtime role); the stored rows read and written as the schema's owner.
let orm: Orm;
let owner: Orm;
let streams: PostgresAuditStreamRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  owner = await openOrm(inject('databaseUrl'), 1);
  streams = new PostgresAuditStreamRepository(orm, testSecretBox());
});
afterAll(async () => {
  await orm.close();
  await owner.close();
});

const storedRow = async (id: string) =>
  (await owner.em.fork().execute<{ secret: string | null; secret_encrypted: string | null }[]>('select secret, secret_encrypted from audit_streams where id = ?', [id]))[0]!;

describe('PostgresAuditStreamRepository secrets', () => {
  it('stores the secret encrypted, never as given, and gives the delivering activity the secret itself', async () => {
    const id = randomUUID();
    await streams.create({ id, url: 'https://siem.example/in', secret: SECRET, filter: {} }, { action: 'audit.stream_created', target_id: id, metadata: { url: 'https://siem.example/in', filter: {} } }, SYSTEM_ACTOR);
    const row = await storedRow(id);
    expect(row.secret).toBeNull();
    expect(row.secret_encrypted).toMatch(/^v1:test-secrets:/);
    expect(row.secret_encrypted).not.toContain(SECRET);
    expect(Buffer.from(row.secret_encrypted!.split(':')[2]!, 'base64').toString('latin1')).not.toContain(SECRET);
    expect((await streams.findDeliverable(id))?.secret).toBe(SECRET);
  });

  it('reads a stream stored before encryption as it is, and encrypts its secret at the next start', async () => {
    const id = randomUUID();
    await owner.em.fork().execute(
      `insert into audit_streams (id, url, secret, filter, start_after_id, delivered_through_id) values (?, 'https://siem.example/old', ?, '{}', 0, 0)`,
      [id, SECRET],
    );
    expect((await streams.findDeliverable(id))?.secret).toBe(SECRET);
    expect(await streams.sealPlaintextSecrets()).toBeGreaterThanOrEqual(1);
    const row = await storedRow(id);
    expect(row.secret).toBeNull();
    expect(row.secret_encrypted).not.toContain(SECRET);
    expect((await streams.findDeliverable(id))?.secret).toBe(SECRET);
    expect(await streams.sealPlaintextSecrets()).toBe(0);
  });
});
