import type { ActorOutbox, OutboxEntry } from '../domain/tenantActor/actorOutboxRepository.ts';
import type { QueuedActorCommand } from '../domain/changeEffects/changeEffects.ts';
import type { OutboxCommand } from '../domain/tenantActor/tenantActorCommand.ts';
import { HAND_OFF_GRACE_SECONDS } from '../domain/tenantActor/handOffGrace.ts';
import type { Orm } from './orm.ts';
import type { Sql } from './sql.ts';
import { retryDelayMs, type RetryPolicy } from '../domain/retryPolicy.ts';

/** When a hand-off written now falls due for the relay (HAND_OFF_GRACE_SECONDS), as SQL. */
export const HAND_OFF_DUE_SQL = `now() + make_interval(secs => ${HAND_OFF_GRACE_SECONDS})`;

/** Records a command for the tenant's actor inside the caller's transaction (see HAND_OFF_GRACE_SECONDS): the row's payload is the command. */
export async function enqueueActorCommand(sql: Sql, tenantId: string, command: OutboxCommand): Promise<QueuedActorCommand> {
  const { rows } = await sql.query<{ id: string }>({
    name: 'actor_outbox_enqueue',
    text: `insert into tenant_actor_outbox (tenant_id, payload, next_attempt_at)
           values ($1, $2, ${HAND_OFF_DUE_SQL}) returning id`,
    values: [tenantId, JSON.stringify(command)],
  });
  return { id: Number(rows[0]!.id), tenantId, command };
}

/** Records one command for the actor of each tenant, in one statement inside the caller's transaction. */
export async function enqueueActorCommands(sql: Sql, tenantIds: string[], command: OutboxCommand): Promise<QueuedActorCommand[]> {
  if (tenantIds.length === 0) return [];
  const { rows } = await sql.query<{ id: string; tenant_id: string }>({
    name: 'actor_outbox_enqueue_many',
    text: `insert into tenant_actor_outbox (tenant_id, payload, next_attempt_at)
           select tenant_id, $2::jsonb, ${HAND_OFF_DUE_SQL} from unnest($1::uuid[]) as tenant_id
           returning id, tenant_id`,
    values: [tenantIds, JSON.stringify(command)],
  });
  return rows.map((row) => ({ id: Number(row.id), tenantId: row.tenant_id, command }));
}

/** How a hand-off that failed is retried by the relay. */
const OUTBOX_RETRY: RetryPolicy = { initialIntervalMs: 1_000, backoffCoefficient: 2, maximumIntervalMs: 5 * 60_000 };

export class PostgresActorOutbox implements ActorOutbox {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  async markDelivered(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#orm.em
      .fork()
      .execute(`update tenant_actor_outbox set delivered_at = now() where id = any(?::bigint[]) and delivered_at is null`, [`{${ids.join(',')}}`]);
  }

  /**
   * Leases due commands to this relay: their next attempt moves out by an exponential backoff (capped at 5 minutes),
   * so another replica skips them while this one delivers, and a failed delivery is retried later.
   */
  async leaseDue(limit: number, leaseSeconds: number): Promise<OutboxEntry[]> {
    // The payload is the command as a change wrote it (enqueueActorCommand).
    const rows = await this.#orm.em.fork().execute<{ id: string; tenant_id: string; payload: OutboxCommand; attempts: number }[]>(
      `update tenant_actor_outbox set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ?)
        where id in (select id from tenant_actor_outbox
                      where delivered_at is null and dead_lettered_at is null and next_attempt_at <= now()
                      order by next_attempt_at limit ? for update skip locked)
        returning id, tenant_id, payload, attempts`,
      [leaseSeconds, limit],
    );
    return rows.map((r) => ({ id: Number(r.id), tenantId: r.tenant_id, command: r.payload, attempts: r.attempts }));
  }

  async backlog(): Promise<{ pending: number; oldestSeconds: number; deadLettered: number }> {
    const [row] = await this.#orm.em.fork().execute<{ pending: string; oldest: string | null; dead: string }[]>(
      `select count(*) filter (where dead_lettered_at is null) as pending,
              extract(epoch from now() - min(created_at) filter (where dead_lettered_at is null)) as oldest,
              count(*) filter (where dead_lettered_at is not null) as dead
         from tenant_actor_outbox where delivered_at is null`,
    );
    return { pending: Number(row!.pending), oldestSeconds: Number(row!.oldest ?? 0), deadLettered: Number(row!.dead) };
  }

  /** Backoff from now (OUTBOX_RETRY: 1 s doubling, at most 5 minutes), so a failure is retried without waiting out the lease. */
  async recordDeliveryError(entry: OutboxEntry, message: string, maxAttempts: number): Promise<{ deadLettered: boolean }> {
    const rows = await this.#orm.em.fork().execute<{ dead: boolean }[]>(
      `update tenant_actor_outbox
          set last_error = ?,
              next_attempt_at = now() + make_interval(secs => ?),
              dead_lettered_at = case when attempts >= ? then now() end
        where id = ? and delivered_at is null
        returning dead_lettered_at is not null as dead`,
      // entry.attempts counts the lease of the attempt that failed: after the first, 2 s, then 4 s, ...
      [message.slice(0, 1000), retryDelayMs(OUTBOX_RETRY, entry.attempts + 1) / 1000, maxAttempts, entry.id],
    );
    return { deadLettered: rows[0]?.dead === true };
  }
}
