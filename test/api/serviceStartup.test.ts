import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const startScript = resolve(import.meta.dirname, '../../scripts/start.ts');

/** Starts the real entry point with the given environment and returns how it ended (it must end by itself). */
async function startWith(env: Record<string, string>) {
  const result = await run(process.execPath, [startScript], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    timeout: 20_000,
  }).then(
    (ok) => ({ code: 0, stderr: ok.stderr }),
    (error: { code: number | string; stderr: string; killed?: boolean }) => ({ code: error.code, stderr: error.stderr, killed: error.killed }),
  );
  return result;
}

describe('service start-up', () => {
  it('refuses to start with AUTH_ENABLED=true and no AUTH_ISSUER, naming the missing setting', async () => {
    const result = await startWith({ AUTH_ENABLED: 'true', PORT: '0' });
    expect(result.code).not.toBe(0);
    expect(result).not.toMatchObject({ killed: true });
    expect(result.stderr).toContain('AUTH_ISSUER');
  });

  it('refuses to start with IDP_ADMIN_URL set and no client secret, without printing any secret', async () => {
    const result = await startWith({ IDP_ADMIN_URL: 'http://127.0.0.1:1', IDP_ADMIN_REALM: 'r', IDP_ADMIN_CLIENT_ID: 'c', PORT: '0' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('IDP_ADMIN_CLIENT_SECRET');
  });
});
