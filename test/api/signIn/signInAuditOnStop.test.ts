import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOrm, type Orm } from '../../../store/orm.ts';
import { insertMember } from '../../support/memberRows.ts';
import { spawnApi, type ApiProcess } from '../../support/spawnApi.ts';
import { uniqueSlug } from '../../support/testService.ts';

/** The real API process, whose sign-in events wait an hour to be written unless it stops first. */
let orm: Orm;
let api: ApiProcess | undefined;
beforeAll(async () => {
  orm = await openOrm(inject('databaseUrl'), 1);
});
afterAll(async () => {
  if (api && api.child.exitCode === null) api.child.kill('SIGKILL');
  await orm.close();
});

describe('sign-in audit events on a clean stop', () => {
  it('are written before the API process exits on SIGTERM, though none was due yet', async () => {
    api = await spawnApi({ SIGN_IN_AUDIT_FLUSH_MS: String(3_600_000) });
    const tenantId = randomUUID();
    await orm.em.fork().execute(
      `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values (?, ?, 'Frozen', 'frozen', 'customer', 'starter', now(), now())`,
      [tenantId, uniqueSlug('sgnstop')],
    );
    const userId = randomUUID();
    await insertMember(orm, { tenantId, userId, status: 'active', roles: ['MEMBER'] });
    const refused = async () => orm.em.fork().execute<{ reason: string }[]>(`select metadata->>'reason' as reason from audit_events where tenant_id = ? and action = 'sign_in.refused'`, [tenantId]);

    const res = await fetch(`${api.base}/v1/internal/idp/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: tenantId, user_id: userId, client_id: 'any-client', amr: ['pwd'], auth_time: Math.floor(Date.now() / 1000) }),
    });
    expect(await res.json()).toMatchObject({ decision: 'deny', reason: 'tenant_frozen' });
    expect(await refused()).toEqual([]);

    const exited = once(api.child, 'exit');
    api.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(await refused()).toEqual([{ reason: 'tenant_frozen' }]);
  }, 90_000);
});
