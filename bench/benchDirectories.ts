import { seedDirectoryUsers } from './seed.ts';

/** A SCIM directory the bench drives: its id and its bearer token. */
export interface BenchDirectory {
  id: string;
  token: string;
}

/** A new directory of the tenant, or `full` when the tenant has reached its limit of directories. */
async function newDirectory(serviceUrl: string, tenantId: string): Promise<BenchDirectory | 'full'> {
  const res = await fetch(`${serviceUrl}/v1/tenants/${tenantId}/directories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = await res.text();
  if (res.status === 409 && body.includes('"limit_reached"')) return 'full';
  if (res.status !== 201) throw new Error(`POST /v1/tenants/${tenantId}/directories answered ${res.status}: ${body}`);
  return JSON.parse(body) as BenchDirectory;
}

/**
 * Two directories of one tenant, made through the API (their tokens exist only as hashes): `burst` for the first-sync
 * creation row, `read` with `users` users made straight in its table for the filter row. Each run makes two, so with
 * `--reuse` a tenant at its limit of directories is passed over for the next one of `tenants`.
 */
export async function benchDirectories(
  serviceUrl: string,
  databaseUrl: string,
  tenants: readonly { id: string }[],
  users: number,
): Promise<{ burst: BenchDirectory; read: BenchDirectory }> {
  for (const tenant of tenants) {
    const burst = await newDirectory(serviceUrl, tenant.id);
    const read = burst === 'full' ? 'full' : await newDirectory(serviceUrl, tenant.id);
    if (burst === 'full' || read === 'full') continue;
    await seedDirectoryUsers(databaseUrl, read.id, users);
    return { burst, read };
  }
  throw new Error('every tenant the bench may use has reached its limit of directories');
}
