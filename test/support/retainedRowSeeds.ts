import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * Rows of the three retained kinds written straight into a test's own database, each at the times a test gives
 * (milliseconds), and what is left of them: the retention sweep's tests judge rows by their times alone.
 */
export class RetainedRowSeeds {
  readonly #db: pg.Pool;

  constructor(databaseUrl: string) {
    this.#db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  close = () => this.#db.end();

  async tenant(): Promise<string> {
    const id = randomUUID();
    await this.#db.query(
      `insert into tenants (id, slug, name, status, kind, plan, created_at, updated_at) values ($1, $2, 'Retained', 'active', 'customer', 'starter', now(), now())`,
      [id, `retained-${id.slice(0, 8)}`],
    );
    return id;
  }

  /** A portal link expiring at `expiresAt`, opened at `usedAt` (starting a session then) or never. */
  async portalLink(tenantId: string, times: { expiresAt: number; usedAt?: number }): Promise<string> {
    const id = randomUUID();
    const createdAt = new Date((times.usedAt ?? times.expiresAt) - 60_000);
    await this.#db.query(
      `insert into portal_links (id, tenant_id, intent, token_hash, created_by, expires_at, used_at, created_at) values ($1, $2, 'members', $3, 'test', $4, $5, $6)`,
      [id, tenantId, randomBytes(32), new Date(times.expiresAt), times.usedAt === undefined ? null : new Date(times.usedAt), createdAt],
    );
    if (times.usedAt !== undefined) {
      const opened = new Date(times.usedAt);
      await this.#db.query(
        `insert into portal_sessions (id, link_id, tenant_id, intent, session_hash, csrf_token, created_by, last_seen_at, created_at) values ($1, $2, $3, 'members', $4, 'csrf', 'test', $5, $5)`,
        [randomUUID(), id, tenantId, randomBytes(32), opened],
      );
    }
    return id;
  }

  /** A hand-off to the tenant's actor, delivered at `deliveredAt`, or else still pending, or dead-lettered at `deadLetteredAt`. */
  async handOff(tenantId: string, times: { createdAt: number; deliveredAt?: number; deadLetteredAt?: number }): Promise<string> {
    const { rows } = await this.#db.query<{ id: string }>(
      `insert into tenant_actor_outbox (tenant_id, payload, created_at, next_attempt_at, delivered_at, dead_lettered_at)
       values ($1, '{"kind":"pushClaims"}', $2, $2, $3, $4) returning id`,
      [tenantId, new Date(times.createdAt), at(times.deliveredAt), at(times.deadLetteredAt)],
    );
    return rows[0]!.id;
  }

  /** A directory whose previous token's grace ends at `previousTokenExpiresAt` (none: never rotated). */
  async directory(tenantId: string, previousTokenExpiresAt?: number): Promise<string> {
    const id = randomUUID();
    await this.#db.query(
      `insert into directories (id, tenant_id, state, token_hash, previous_token_hash, previous_token_expires_at, created_at, updated_at)
       values ($1, $2, 'active', $3, $4, $5, now(), now())`,
      [id, tenantId, randomBytes(32), previousTokenExpiresAt === undefined ? null : randomBytes(32), at(previousTokenExpiresAt)],
    );
    return id;
  }

  /** Which of the links, hand-offs and directories' previous tokens given are still there, and the sessions of those links. */
  async left(ids: { links?: string[]; handOffs?: string[]; directories?: string[] }) {
    const links = await this.#db.query<{ id: string }>('select id from portal_links where id = any($1::uuid[])', [ids.links ?? []]);
    const sessions = await this.#db.query<{ link_id: string }>('select link_id from portal_sessions where link_id = any($1::uuid[])', [ids.links ?? []]);
    const handOffs = await this.#db.query<{ id: string }>('select id::text from tenant_actor_outbox where id = any($1::bigint[])', [ids.handOffs ?? []]);
    const tokens = await this.#db.query<{ id: string }>('select id from directories where id = any($1::uuid[]) and previous_token_hash is not null', [ids.directories ?? []]);
    return {
      links: sorted(links.rows.map((r) => r.id)),
      sessionsOfLinks: sorted(sessions.rows.map((r) => r.link_id)),
      handOffs: sorted(handOffs.rows.map((r) => r.id)),
      previousTokens: sorted(tokens.rows.map((r) => r.id)),
    };
  }

  /** How many directories of those given are still there (a cleared token leaves its directory). */
  async directoriesLeft(ids: string[]): Promise<number> {
    const { rows } = await this.#db.query<{ n: number }>('select count(*)::int as n from directories where id = any($1::uuid[])', [ids]);
    return rows[0]!.n;
  }
}

const at = (ms: number | undefined) => (ms === undefined ? null : new Date(ms));
const sorted = (ids: string[]) => [...ids].sort();
