import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { openOrm, type Orm } from '../store/orm.ts';
import { nativePool } from '../store/nativePool.ts';
import { postgresStores } from '../store/postgresStores.ts';
import { SecretBox } from '../platform/secretBox.ts';
import type { RegistryStores } from '../domain/registryStores.ts';

/** A statement as the repositories send it to the pool. */
interface SentStatement {
  name?: string;
  text: string;
  values: unknown[];
}

/** One read of a bench row, made through the service's own repository, whose statements are explained. */
export interface PlannedRead {
  row: string;
  read: (stores: RegistryStores, orm: Orm) => Promise<unknown>;
}

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of the statements each list and page row of the bench sends, on the bench's data
 * (issue 40). The statements are the repositories' own: each read runs through them on a pool whose `query` records
 * what was sent. A named statement runs as the service runs it: prepared on one connection, executed six times first
 * (PostgreSQL picks its generic plan from the sixth execution on when that is no worse), then explained by EXECUTE,
 * so the plan shown is the one the service's connections use.
 */
export async function explainReads(databaseUrl: string, reads: PlannedRead[]): Promise<string> {
  const orm = await openOrm(databaseUrl, 2);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sent = await recordingPool(orm);
    const stores = postgresStores(orm, new SecretBox([{ id: 'plans', key: randomBytes(32) }]));
    const sections: string[] = [];
    for (const { row, read } of reads) {
      sent.length = 0;
      await read(stores, orm);
      for (const statement of [...sent]) sections.push(`### ${row}\n\n${'```'}sql\n${statement.text.trim()}\n${'```'}\n\n${'```'}text\n${await explain(client, statement)}\n${'```'}\n`);
    }
    return sections.join('\n');
  } finally {
    await client.end();
    await orm.close(true);
  }
}

async function recordingPool(orm: Orm): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const pool = (await nativePool(orm)) as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const query = pool.query.bind(pool);
  pool.query = (first: unknown, values?: unknown) => {
    sent.push(typeof first === 'string' ? { text: first, values: (values as unknown[] | undefined) ?? [] } : (first as SentStatement));
    return query(first, values);
  };
  return sent;
}

let unnamed = 0;

async function explain(client: pg.Client, statement: SentStatement): Promise<string> {
  const name = statement.name ?? `plan_${(unnamed += 1)}`;
  for (let i = 0; i < 6; i += 1) await client.query({ name, text: statement.text, values: statement.values });
  const literals = statement.values.map((value) => (value === null || value === undefined ? 'null' : client.escapeLiteral(literalText(value))));
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers) execute ${client.escapeIdentifier(name)}${literals.length > 0 ? `(${literals.join(', ')})` : ''}`,
  );
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** A parameter as PostgreSQL's text input of its type reads it (the statements cast their parameters). */
function literalText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.map((item) => `"${String(item).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
