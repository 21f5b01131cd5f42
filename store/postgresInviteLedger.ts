import type { InviteLedger } from '../domain/provisioning/inviteLedger.ts';
import type { Orm } from './orm.ts';

export class PostgresInviteLedger implements InviteLedger {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async wasSent(runKey: string): Promise<boolean> {
    const rows = await this.#orm.em.fork().execute(`select 1 from provisioning_invites where run_key = ?`, [runKey]);
    return rows.length > 0;
  }

  async recordSent(runKey: string, tenantId: string, userId: string): Promise<void> {
    await this.#orm.em
      .fork()
      .execute(`insert into provisioning_invites (run_key, tenant_id, user_id) values (?, ?, ?) on conflict (run_key) do nothing`, [runKey, tenantId, userId]);
  }
}
