import pg from 'pg';
import { migrationsList } from './migrations/index.ts';

/** The schema lacks migrations this code needs, or the connection's role was never granted it: `npm run migrate` has not run. */
export class SchemaNotMigrated extends Error {
  constructor(detail: string) {
    super(`schema not migrated: run npm run migrate (${detail})`);
    this.name = 'SchemaNotMigrated';
  }
}

const UNDEFINED_TABLE = '42P01';
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * What the API and the worker check at start instead of migrating, connected as the role they run as: every migration
 * this code knows is applied (a newer schema is fine: a rolling deployment migrates before its old replicas stop), and
 * the role may read the migration history (granted by the same step). Answers whether the role owns the schema,
 * which it should not (docs/security.md).
 */
export async function verifyMigratedSchema(databaseUrl: string): Promise<{ ownsSchema: boolean }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const applied = await client.query<{ name: string }>('select name from public.mikro_orm_migrations').catch((error: { code?: string }) => {
      if (error.code === UNDEFINED_TABLE) throw new SchemaNotMigrated('the database has no schema');
      if (error.code === INSUFFICIENT_PRIVILEGE) throw new SchemaNotMigrated("DATABASE_URL's role has not been granted the schema");
      throw error;
    });
    const names = new Set(applied.rows.map((row) => row.name));
    const pending = migrationsList.filter((migration) => !names.has(migration.name)).map((migration) => migration.name);
    if (pending.length > 0) throw new SchemaNotMigrated(`${pending.length} pending, the first ${pending[0]}`);
    const { rows } = await client.query<{ owns: boolean }>(
      `select pg_catalog.pg_has_role(current_user, c.relowner, 'USAGE') or r.rolsuper as owns
         from pg_catalog.pg_class c, pg_catalog.pg_roles r
        where c.oid = 'public.audit_events'::regclass and r.rolname = current_user`,
    );
    return { ownsSchema: rows[0]!.owns };
  } finally {
    await client.end();
  }
}
