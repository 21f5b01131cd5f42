import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../../store/orm.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../support/scratchDatabase.ts';

/** A database of this file's own, migrated up to the migration before, given the events of earlier deletions, then migrated on. */
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await createScratchDatabase('deleted_sso_migration');
});
afterAll(() => scratch?.drop());

describe('Migration20261206000036DeletedSsoConnections', () => {
  it("keeps each connection deleted before it, from its sso.connection_deleted event, so its alias is still known as a tenant's", async () => {
    const orm = await openOrm(scratch.ownerUrl, 1);
    try {
      await orm.migrator.up({ to: 'Migration20261205000035SimulatorPasswords' });
      const db = orm.em.fork();
      const tenantId = randomUUID();
      await db.execute(
        `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values (?, 'legacy-sso', 'Legacy', 'active', 'customer', 'starter', now(), now())`,
        [tenantId],
      );
      const [deleted, forged] = [randomUUID(), 'not-a-connection-id'];
      const event = (targetId: string, metadata: Record<string, unknown>) =>
        db.execute(`insert into audit_events (action, tenant_id, actor_type, target_id, target_type, target_name, metadata) values ('sso.connection_deleted', ?, 'api_key', ?, 'sso_connection', ?, ?)`, [
          tenantId,
          targetId,
          metadata.issuer ?? '',
          JSON.stringify(metadata),
        ]);
      await event(deleted, { issuer: 'https://idp.legacy.test', client_id: 'registry', domains: ['legacy.test'], state: 'active', idp_alias: `sso-${deleted}` });
      await event(forged, { idp_alias: 'sso-forged' });

      await orm.migrator.up();
      const kept = await db.execute('select idp_alias, id, tenant_id, issuer, client_id, domains from deleted_sso_connections order by idp_alias');
      expect(kept).toEqual([{ idp_alias: `sso-${deleted}`, id: deleted, tenant_id: tenantId, issuer: 'https://idp.legacy.test', client_id: 'registry', domains: ['legacy.test'] }]);
    } finally {
      await orm.close();
    }
  });
});
