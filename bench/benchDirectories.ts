import { seedDirectoryUsers } from './seed.ts';

/** A SCIM directory the bench drives: its id and its bearer token. */
export interface BenchDirectory {
  id: string;
  token: string;
}

async function newDirectory(serviceUrl: string, tenantId: string): Promise<BenchDirectory> {
  const res = await fetch(`${serviceUrl}/v1/tenants/${tenantId}/directories`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (res.status !== 201) throw new Error(`POST /v1/tenants/${tenantId}/directories answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as BenchDirectory;
}

/**
 * Two directories of one tenant, made through the API (their tokens exist only as hashes): `burst` for the first-sync
 * creation row, `read` with `users` users made straight in its table for the filter row.
 */
export async function benchDirectories(serviceUrl: string, databaseUrl: string, tenantId: string, users: number): Promise<{ burst: BenchDirectory; read: BenchDirectory }> {
  const burst = await newDirectory(serviceUrl, tenantId);
  const read = await newDirectory(serviceUrl, tenantId);
  await seedDirectoryUsers(databaseUrl, read.id, users);
  return { burst, read };
}
