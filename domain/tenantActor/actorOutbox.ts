import type { EntityManager } from '@mikro-orm/postgresql';

export type OutboxCommand = 'provision' | 'pushClaims';

export interface OutboxEntry {
  id: number;
  tenantId: string;
  command: OutboxCommand;
  attempts: number;
}

/**
 * Records a command for the tenant's actor inside the caller's transaction. The relay waits `graceSeconds`
 * before picking it up, leaving the request that wrote it time to deliver it directly.
 */
export async function enqueueActorCommand(em: EntityManager, tenantId: string, command: OutboxCommand, graceSeconds = 15): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into tenant_actor_outbox (tenant_id, command, next_attempt_at) values (?, ?, now() + make_interval(secs => ?)) returning id`,
    [tenantId, command, graceSeconds],
  );
  return Number(rows[0]!.id);
}

export async function markDelivered(em: EntityManager, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await em.execute(`update tenant_actor_outbox set delivered_at = now() where id = any(?::bigint[]) and delivered_at is null`, [`{${ids.join(',')}}`]);
}

/**
 * Leases due commands to this relay: their next attempt moves out by an exponential backoff (capped at 5 minutes),
 * so another replica skips them while this one delivers, and a failed delivery is retried later.
 */
export async function leaseDueCommands(em: EntityManager, limit: number): Promise<OutboxEntry[]> {
  const rows = await em.execute<{ id: string; tenant_id: string; command: OutboxCommand; attempts: number }[]>(
    `update tenant_actor_outbox set attempts = attempts + 1,
            next_attempt_at = now() + least(interval '5 minutes', interval '1 second' * power(2, attempts))
      where id in (select id from tenant_actor_outbox where delivered_at is null and next_attempt_at <= now()
                    order by next_attempt_at limit ? for update skip locked)
      returning id, tenant_id, command, attempts`,
    [limit],
  );
  return rows.map((r) => ({ id: Number(r.id), tenantId: r.tenant_id, command: r.command, attempts: r.attempts }));
}

export async function recordDeliveryError(em: EntityManager, id: number, message: string): Promise<void> {
  await em.execute(`update tenant_actor_outbox set last_error = ? where id = ?`, [message.slice(0, 1000), id]);
}
