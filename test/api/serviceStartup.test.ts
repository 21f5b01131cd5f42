import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../platform/freePort.ts';
import { EMBEDDED_RUNTIME_ROLE } from '../../platform/database.ts';
import { eventually } from '../support/eventually.ts';

const run = promisify(execFile);
const startScript = resolve(import.meta.dirname, '../../scripts/start.ts');
const apiEntry = resolve(import.meta.dirname, '../../api/main.ts');
const workerEntry = resolve(import.meta.dirname, '../../worker/main.ts');

/** Starts the real entry point with the given environment and returns how it ended (it must end by itself). */
async function startWith(env: Record<string, string>, entry = startScript) {
  const result = await run(process.execPath, [entry], {
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
    const result = await startWith({ AUTH_ENABLED: 'true', PUBLIC_BASE_URL: 'https://registry.example.com', PORT: '0' });
    expect(result.code).not.toBe(0);
    expect(result).not.toMatchObject({ killed: true });
    expect(result.stderr).toContain('AUTH_ISSUER');
  });

  it('refuses to start with AUTH_ENABLED=true and no PUBLIC_BASE_URL, naming it: the API, the worker and npm start alike', { timeout: 90_000 }, async () => {
    const env = { AUTH_ENABLED: 'true', AUTH_ISSUER: 'https://issuer.example.com/realms/r', PORT: '0' };
    const entries = [startScript, apiEntry, workerEntry];
    const results = await Promise.all(entries.map((entry) => startWith(env, entry)));
    results.forEach((result, i) => {
      expect(result.code, entries[i]).not.toBe(0);
      expect(result, entries[i]).not.toMatchObject({ killed: true });
      expect(result.stderr, entries[i]).toContain('PUBLIC_BASE_URL is required with AUTH_ENABLED=true');
    });
  });

  it('refuses to start with IDP_ADMIN_URL set and no client secret, without printing any secret', async () => {
    const result = await startWith({ IDP_ADMIN_URL: 'http://127.0.0.1:1', IDP_ADMIN_REALM: 'r', IDP_ADMIN_CLIENT_ID: 'c', PORT: '0' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('IDP_ADMIN_CLIENT_SECRET');
  });

  it('runs the API and the worker as two processes, and when one dies stops the other and exits non-zero', async () => {
    const { dataDir, port, env } = await embeddedSetup('warn');
    const start = spawn(process.execPath, [startScript], { env, stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => start.once('exit', done));
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 90_000, 'readiness');
      const children = childEntryPoints(start.pid!);
      expect([...children.keys()].sort()).toEqual(['api/main.ts', 'worker/main.ts']);
      // npm start migrated as the owner itself: its children run as the runtime role and never get the owner's URL.
      for (const pid of children.values()) {
        const environment = environmentOf(pid);
        expect(environment.DATABASE_MIGRATION_URL).toBeUndefined();
        expect(new URL(environment.DATABASE_URL!).username).toBe(EMBEDDED_RUNTIME_ROLE);
      }
      process.kill(children.get('api/main.ts')!, 'SIGKILL');
      expect(await exited).toBe(1);
      expect(isRunning(children.get('worker/main.ts')!)).toBe(false);
    } finally {
      start.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('on SIGTERM stops the API, the worker, Temporal and PostgreSQL in order, each says it stopped, and it exits 0', async () => {
    const { dataDir, port, env } = await embeddedSetup('info');
    const start = spawn(process.execPath, [startScript], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    start.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((done) => start.once('close', done));
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 90_000, 'readiness');
      // The worker is running once its workflow bundle (a short-lived process of its own) is built.
      await eventually(async () => out.includes('tenant actor worker running'), 60_000, 'worker running');
      const started = descendants(start.pid!);
      expect(started.length).toBeGreaterThanOrEqual(4);
      start.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(started.filter(({ pid }) => isRunning(pid))).toEqual([]);
      const stopped = out.split('\n').filter((line) => line.includes('"msg":"stopped"')).map((line) => (JSON.parse(line) as { name: string }).name);
      expect(stopped).toEqual(['tenant-registry-api', 'tenant-registry-worker', 'tenant-registry']);
    } finally {
      start.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A data folder and free ports for a whole `npm start` on its embedded defaults. */
async function embeddedSetup(logLevel: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'start-'));
  const [port, pgPort, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1',
    METRICS_PORT: String(await freePort()), WORKER_METRICS_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(pgPort), TEMPORAL_DEV_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(uiPort), LOG_LEVEL: logLevel,
  };
  return { dataDir, port, env };
}

/** Every process below `pid` (its children, theirs, ...), with its command line. */
function descendants(pid: number): { pid: number; command: string }[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const below = (parent: number): number[] => [...parentOf].filter(([, p]) => p === parent).flatMap(([child]) => [child, ...below(child)]);
  return below(pid).map((child) => ({ pid: child, command: commandOf(child) }));
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 120);
  } catch {
    return '';
  }
}

/** The project entry points the direct children of `pid` run, with their pids. */
function childEntryPoints(pid: number): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      const script = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').find((arg) => arg.endsWith('.ts'));
      if (script) found.set(script.split('/').slice(-2).join('/'), Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/** The environment a process was started with. */
function environmentOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
