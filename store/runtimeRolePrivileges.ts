import pg from 'pg';

/**
 * What the service's runtime role may do, granted by the role that owns the schema after each migration run (GRANT is
 * idempotent, and a table added by a later migration is covered the next run). The runtime role owns nothing, so
 * it can neither ALTER a table nor disable a trigger; the audit log is INSERT and SELECT only, and the chain's head
 * is written by the owner's SECURITY DEFINER trigger (Migration20261127000018ChainTrustsNoSession), never by the runtime.
 * Nor may it create anything, temporary objects included (the service uses none): no function of its own to be found
 * on a search path.
 */
const GRANTS = (role: string, database: string) => [
  `grant usage on schema public to ${role}`,
  `grant select, insert, update, delete on all tables in schema public to ${role}`,
  `grant usage, select on all sequences in schema public to ${role}`,
  `revoke insert, update, delete, truncate on mikro_orm_migrations from ${role}`,
  `revoke update, delete, truncate, references, trigger on audit_events from ${role}`,
  `revoke insert, update, delete, truncate on audit_chain_head from ${role}`,
  `revoke insert, update, delete, truncate on audit_chain_links from ${role}`,
  `revoke all on sequence audit_event_ids from ${role}`,
  // A role's grants are added and taken away, never rewritten in place.
  `revoke update on role_permissions from ${role}`,
  `revoke create on schema public from ${role}`,
  `revoke create on schema public from public`,
  `revoke temporary on database ${database} from public`,
  `revoke temporary on database ${database} from ${role}`,
];

/** Grants the runtime role its privileges, connected as the schema's owner (the migration connection). */
export async function grantRuntimePrivileges(ownerUrl: string, runtimeRole: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const role = client.escapeIdentifier(runtimeRole);
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    await client.query('begin');
    for (const statement of GRANTS(role, client.escapeIdentifier(rows[0]!.name))) await client.query(statement);
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/** The role a connection URL logs in as. */
export const roleOf = (databaseUrl: string): string => decodeURIComponent(new URL(databaseUrl).username);
