import pg from 'pg';
import { eventMismatch } from '../../domain/events/eventCatalog.ts';

/** Events read per step of the check: one keyset step over the primary key. */
const BATCH = 5_000;
/** Mismatches shown in the failure; the count covers all of them. */
const SHOWN = 20;

/**
 * The test hook of the event catalog (SPEC-EXTENSIONS §16): at the end of the run, every event the whole suite
 * appended to the run's database (what every test file's services and workers write to) is checked against its
 * type's schema, and an action under the service's own prefixes that the catalog does not know is a failure. The
 * run's database is created empty by its global setup, so what it holds is exactly what this run appended. Throws,
 * failing the run, when any event does not fit.
 */
export async function checkAppendedEvents(databaseUrl: string): Promise<{ checked: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const failures: string[] = [];
  let checked = 0;
  try {
    let after = 0;
    for (;;) {
      const { rows } = await client.query<{ id: string; action: string; metadata: unknown }>(
        'select id, action, metadata from audit_events where id > $1 order by id limit $2',
        [after, BATCH],
      );
      for (const row of rows) {
        const mismatch = eventMismatch(row.action, row.metadata);
        if (mismatch) failures.push(`event ${row.id}: ${mismatch}`);
      }
      checked += rows.length;
      if (rows.length < BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
  } finally {
    await client.end();
  }
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} of the ${checked} events this run appended do not fit the event catalog (domain/events/eventTypes.ts):\n${failures.slice(0, SHOWN).join('\n')}`,
    );
  }
  return { checked };
}
