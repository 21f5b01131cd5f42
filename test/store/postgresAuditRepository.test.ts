import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../domain/requestMeta.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresAuditRepository } from '../../store/postgresAuditRepository.ts';

// As the service runs: the runtime role, on a pool of its own, so its connections have chained nothing before.
let orm: Orm;
let audit: PostgresAuditRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  audit = new PostgresAuditRepository(orm);
});
afterAll(() => orm.close());

const rowsOf = (outcomeId: string) =>
  orm.em.fork().execute<{ id: string }[]>(`select id from audit_events where metadata->>'outcome_id' = ?`, [outcomeId]);

describe('PostgresAuditRepository.appendOutcomeOnce', () => {
  it('records an outcome once, and recording it again (a retried activity) succeeds without a second event', async () => {
    const outcome = {
      action: 'idp.invite_sent',
      tenant_id: randomUUID(),
      metadata: { outcome_id: randomUUID() },
    };
    // The second call appends nothing, in a transaction of its own: no row sets the chain's running values there, and
    // the chain head must stay as it is rather than fail the statement.
    await expect(audit.appendOutcomeOnce(outcome as never, SYSTEM_ACTOR)).resolves.toBeUndefined();
    await expect(audit.appendOutcomeOnce(outcome as never, SYSTEM_ACTOR)).resolves.toBeUndefined();
    expect(await rowsOf(outcome.metadata.outcome_id)).toHaveLength(1);
  });
});
