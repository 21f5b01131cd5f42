import type { Orm } from './orm.ts';
import { PROVISIONING_STEPS, type IdpFailureKind } from '../domain/provisioning/provisioningVocabulary.ts';

/**
 * Operator and test controls of the simulated identity provider: inject failures, seed things that belong to no
 * tenant (the natural way to get organization_exists / user_exists), and read the captured outbox.
 */

/** The four failure kinds of SPEC.md, which the simulator can be told to produce. */
export const FAULT_KINDS = ['unauthorized', 'unavailable', 'organization_exists', 'user_exists'] as const satisfies readonly IdpFailureKind[];
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * One step per provider operation, named after what it touches. A fault without a step hits the provisioning steps
 * only: lookups, claim pushes and pings are left out so readiness probes and membership reads never consume a fault
 * meant to break a provisioning.
 */
export const FAULT_STEPS = [...PROVISIONING_STEPS, 'list_users', 'push_claims', 'memberships', 'find_user', 'remove_membership', 'ping'] as const;
export type FaultStep = (typeof FAULT_STEPS)[number];


export interface FaultSpec {
  kind: FaultKind;
  /** Absent: any provisioning step. */
  step?: FaultStep;
  /** Absent: every tenant. Present: only operations on behalf of the tenant with this slug (its organization alias). */
  tenantSlug?: string;
  /** Absent: until cleared. */
  times?: number;
}

export interface Fault {
  id: string;
  kind: FaultKind;
  step: FaultStep | null;
  tenantSlug: string | null;
  remaining: number | null;
  /** ISO 8601. */
  createdAt: string;
}

export interface CapturedEmail {
  id: string;
  userId: string;
  toAddress: string;
  subject: string;
  actions: string[];
  actionUrl: string;
  /** ISO 8601. */
  createdAt: string;
}

interface FaultRow {
  id: string;
  kind: FaultKind;
  step: FaultStep | null;
  tenant_slug: string | null;
  remaining: number | null;
  created_at: string;
}

// Raw queries return timestamps as PostgreSQL text; to_json renders them as ISO 8601 whatever the session's DateStyle.
const FAULT_COLUMNS = `id, kind, step, tenant_slug, remaining, to_json(created_at) #>> '{}' as created_at`;

const toFault = (row: FaultRow): Fault => ({
  id: row.id,
  kind: row.kind,
  step: row.step,
  tenantSlug: row.tenant_slug,
  remaining: row.remaining,
  createdAt: row.created_at,
});

export async function injectFault(orm: Orm, spec: FaultSpec): Promise<Fault> {
  if (!FAULT_KINDS.includes(spec.kind)) throw new Error(`unknown fault kind ${spec.kind}; one of ${FAULT_KINDS.join(', ')}`);
  if (spec.step !== undefined && !FAULT_STEPS.includes(spec.step)) {
    throw new Error(`unknown step ${spec.step}; one of ${FAULT_STEPS.join(', ')}`);
  }
  if (spec.times !== undefined && !(Number.isInteger(spec.times) && spec.times > 0)) {
    throw new Error(`times must be a positive integer, got ${spec.times}`);
  }
  const rows = await orm.em.fork().execute<FaultRow[]>(
    `insert into idp_sim_faults (kind, step, tenant_slug, remaining) values (?, ?, ?, ?) returning ${FAULT_COLUMNS}`,
    [spec.kind, spec.step ?? null, spec.tenantSlug ?? null, spec.times ?? null],
  );
  return toFault(rows[0]!);
}

export async function listFaults(orm: Orm): Promise<Fault[]> {
  const rows = await orm.em.fork().execute<FaultRow[]>(`select ${FAULT_COLUMNS} from idp_sim_faults order by id`);
  return rows.map(toFault);
}

/** Removes every fault, or only those scoped to one tenant; answers how many were removed. */
export async function clearFaults(orm: Orm, scope: { tenantSlug?: string } = {}): Promise<number> {
  const rows = await orm.em.fork().execute<{ id: string }[]>(
    'delete from idp_sim_faults where tenant_slug = ? or ?::boolean returning id',
    [scope.tenantSlug ?? null, scope.tenantSlug === undefined],
  );
  return rows.length;
}

/** An organization without a tenant_id attribute; a tenant whose slug is `alias` (or whose name is `name`) then fails with organization_exists. */
export async function seedForeignOrganization(orm: Orm, org: { alias: string; name?: string }): Promise<{ organizationId: string }> {
  const name = org.name ?? org.alias;
  const em = orm.em.fork();
  await em.execute(`insert into idp_sim_organizations (name, alias) values (?, ?) on conflict do nothing`, [name, org.alias]);
  const rows = await em.execute<{ id: string }[]>(
    `select id from idp_sim_organizations where alias = ? or name = ? order by alias = ? desc limit 1`,
    [org.alias, name, org.alias],
  );
  return { organizationId: rows[0]!.id };
}

/** A user without a tenant_id attribute; provisioning a tenant admin with this e-mail then fails with user_exists. */
export async function seedForeignUser(orm: Orm, user: { email: string }): Promise<{ userId: string }> {
  const email = user.email.trim().toLowerCase();
  const em = orm.em.fork();
  await em.execute(`insert into idp_sim_users (username, email, email_verified) values (?, ?, true) on conflict do nothing`, [email, email]);
  const rows = await em.execute<{ id: string }[]>(
    `select id from idp_sim_users where email = ? or username = ? order by email = ? desc limit 1`,
    [email, email, email],
  );
  return { userId: rows[0]!.id };
}

/** The e-mails the simulator "sent" to an address, oldest first. */
export async function capturedEmails(orm: Orm, toAddress: string): Promise<CapturedEmail[]> {
  const rows = await orm.em.fork().execute<
    { id: string; user_id: string; to_address: string; subject: string; actions: string[]; action_url: string; created_at: string }[]
  >(
    `select id, user_id, to_address, subject, actions, action_url, to_json(created_at) #>> '{}' as created_at
       from idp_sim_emails where to_address = ? and delivered order by id`,
    [toAddress.trim().toLowerCase()],
  );
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    toAddress: row.to_address,
    subject: row.subject,
    actions: row.actions,
    actionUrl: row.action_url,
    createdAt: row.created_at,
  }));
}
