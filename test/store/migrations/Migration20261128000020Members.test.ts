import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../../store/orm.ts';
import { createScratchDatabase, type ScratchDatabase } from '../../support/scratchDatabase.ts';

/** A database of this file's own, migrated up to the migration before the members', given legacy rows, then migrated on. */
let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await createScratchDatabase('members_migration');
});
afterAll(() => scratch?.drop());

describe('Migration20261128000020Members', () => {
  it("makes each tenant provisioned before it an active IT_ADMIN member: the user of its latest idp.invite_sent, with the tenant's admin e-mail and name", async () => {
    const orm = await openOrm(scratch.ownerUrl, 1);
    try {
      await orm.migrator.up({ to: 'Migration20261127000019RolesAndPermissions' });
      const db = orm.em.fork();
      const [invited, reinvited, never, failed] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      for (const [id, slug] of [[invited, 'legacy-invited'], [reinvited, 'legacy-reinvited'], [never, 'legacy-never'], [failed, 'legacy-failed']] as const) {
        await db.execute(
          `insert into tenants (id, slug, name, status, kind, plan, admin_email, admin_name, created_at, updated_at)
           values (?, ?, 'Legacy', 'active', 'customer', 'starter', 'Admin@Legacy.test', 'Ada Admin', now(), now())`,
          [id, slug],
        );
      }
      const event = (tenantId: string, action: string, metadata: Record<string, unknown>) =>
        db.execute(`insert into audit_events (action, tenant_id, actor_type, metadata) values (?, ?, 'system', ?)`, [action, tenantId, JSON.stringify(metadata)]);
      await event(invited, 'idp.invite_sent', { user_id: 'user-1', organization_id: 'org-1' });
      await event(reinvited, 'idp.invite_sent', { user_id: 'user-old' });
      await event(reinvited, 'idp.invite_sent', { user_id: 'user-new' });
      await event(failed, 'idp.provision_failed', { step: 'user', kind: 'unavailable' });

      await orm.migrator.up();
      const members = await db.execute<{ tenant_id: string; user_id: string; email: string; name: string; status: string; source: string; roles: string[] }[]>(
        `select m.tenant_id, m.user_id, m.email, m.name, m.status, m.source,
                array(select r.slug from member_roles mr join roles r on r.id = mr.role_id where mr.tenant_id = m.tenant_id and mr.user_id = m.user_id) as roles
           from members m order by m.user_id`,
      );
      expect(members).toEqual([
        { tenant_id: invited, user_id: 'user-1', email: 'Admin@Legacy.test', name: 'Ada Admin', status: 'active', source: 'provisioning', roles: ['IT_ADMIN'] },
        { tenant_id: reinvited, user_id: 'user-new', email: 'Admin@Legacy.test', name: 'Ada Admin', status: 'active', source: 'provisioning', roles: ['IT_ADMIN'] },
      ]);
    } finally {
      await orm.close();
    }
  });
});
