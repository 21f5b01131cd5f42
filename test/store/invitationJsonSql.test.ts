import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { InvitationRecord } from '../../domain/invitations/invitationRecord.ts';
import { toInvitation } from '../../domain/invitations/invitationResponse.ts';
import { AWKWARD_TEXT } from '../support/awkwardText.ts';
import { openOrm, type Orm } from '../../store/orm.ts';
import { PostgresInvitationRepository } from '../../store/postgresInvitationRepository.ts';

let orm: Orm;
let invitations: PostgresInvitationRepository;
beforeAll(async () => {
  orm = await openOrm(inject('runtimeDatabaseUrl'), 1);
  invitations = new PostgresInvitationRepository(orm);
});
afterAll(() => orm.close());


describe('INVITATION_JSON_SQL: the invitations listing written by PostgreSQL', () => {
  it('writes every invitation as JSON.stringify(toInvitation(record)) writes it: nulls, roles, counts, cut microseconds; positions to the millisecond', async () => {
    const tenantId = randomUUID();
    const em = orm.em.fork();
    await em.execute(`insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values (?, ?, 'Inv', 'active', 'customer', 'p', now(), now())`, [tenantId, `inv-json-${tenantId.slice(0, 8)}`]);
    const base = {
      tenantId, roles: ['MEMBER'], state: 'pending', invitedBy: 'admin', sendCount: 1, lastSentAt: null, acceptedAt: null, acceptedUserId: null, revokedAt: null,
      expiresAt: new Date('2026-12-04T00:00:00.123Z'), updatedAt: new Date('2026-11-27T00:00:00.000Z'),
    };
    const records = [
      { ...base, id: randomUUID(), email: 'plain@x.test', createdAt: new Date('2026-11-27T10:00:00.999Z') },
      {
        ...base, id: randomUUID(), email: 'all@x.test', roles: [AWKWARD_TEXT, 'IT_ADMIN'], state: 'accepted', invitedBy: AWKWARD_TEXT, sendCount: 3,
        lastSentAt: new Date('2026-11-26T00:00:00.001Z'), acceptedAt: new Date('2026-11-27T09:00:00.500Z'), acceptedUserId: AWKWARD_TEXT, createdAt: new Date('2026-11-27T09:00:00.000Z'),
      },
      { ...base, id: randomUUID(), email: 'gone@x.test', roles: [], state: 'revoked', revokedAt: new Date('2026-11-27T08:00:00.000Z'), createdAt: new Date('2026-11-27T08:00:00.000Z') },
    ] as unknown as InvitationRecord[];
    const stored = (date: Date | null) => (date === null ? null : date.toISOString().replace('Z', '999Z'));
    for (const r of records) {
      await em.execute(
        `insert into invitations (id, tenant_id, email, roles, state, expires_at, invited_by, send_count, last_sent_at, accepted_at, accepted_user_id, revoked_at, created_at, updated_at)
         values (?, ?, ?, array(select jsonb_array_elements_text(?::jsonb)), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [r.id, r.tenantId, r.email, JSON.stringify(r.roles), r.state, stored(r.expiresAt), r.invitedBy, r.sendCount, stored(r.lastSentAt), stored(r.acceptedAt), r.acceptedUserId, stored(r.revokedAt), stored(r.createdAt), stored(r.updatedAt)],
      );
    }
    const listed = (await invitations.page(tenantId, {}, undefined, 10))!;
    expect(listed.map((row) => row.json)).toEqual(records.map((r) => JSON.stringify(toInvitation(r))));
    expect(listed.map((row) => [row.id, row.createdAt.getTime()])).toEqual(records.map((r) => [r.id, r.createdAt.getTime()]));
    expect(await invitations.page(randomUUID(), {}, undefined, 10)).toBeUndefined();
  });
});
