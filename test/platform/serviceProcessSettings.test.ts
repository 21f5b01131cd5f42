import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PROCESS_SETTINGS, WORKER_PROCESS_SETTINGS } from '../../platform/serviceProcessSettings.ts';

const settingsModule = resolve(import.meta.dirname, '../../platform/serviceProcessSettings.ts');
const scratch = await mkdtemp(join(tmpdir(), 'process-settings-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const MALLOC_VARIABLES = ['MALLOC_ARENA_MAX', 'MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_'];

interface StartedProcess {
  execArgv: string[];
  cache?: string;
  malloc: Record<string, string>;
  pid: number;
}

/** A process that applies one process's settings first, as the entry points do, then loads a module and reports what it runs with. */
async function startedProcess(
  settings: 'API_PROCESS_SETTINGS' | 'WORKER_PROCESS_SETTINGS',
  env: Record<string, string>,
  nodeOptions: string[] = [],
): Promise<StartedProcess> {
  const code = `const settings = await import(${JSON.stringify(settingsModule)});
    settings.applyServiceProcessSettings(settings.${settings});
    const { flushCompileCache } = await import('node:module');
    await import(${JSON.stringify(resolve(import.meta.dirname, '../../platform/freePort.ts'))});
    flushCompileCache();
    const malloc = Object.fromEntries(${JSON.stringify(MALLOC_VARIABLES)}.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
    console.log(JSON.stringify({ execArgv: process.execArgv.filter((a) => a.startsWith('--') && a !== '--input-type=module'), cache: process.env.NODE_COMPILE_CACHE, malloc, pid: process.pid }));`;
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeOptions, '--input-type=module', '-e', code], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: scratch, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as never;
}

describe('the service processes re-execute themselves with their settings before loading anything else', () => {
  it("gives the API its V8 heap flags, two malloc arenas and a compile cache in the project's own tree", async () => {
    const started = await startedProcess('API_PROCESS_SETTINGS', {});
    expect(started.execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--max-old-space-size=144', '--heap-growing-percent=20']));
    expect(started.malloc).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(started.cache).toBe(resolve(import.meta.dirname, '../../.cache/node-compile-cache'));
    // The modules it loaded are in the cache for the next start.
    expect((await readdir(started.cache!, { recursive: true })).length).toBeGreaterThan(0);
  });

  it("gives the worker smaller semi-spaces and glibc's fixed trim and mapping thresholds", async () => {
    const started = await startedProcess('WORKER_PROCESS_SETTINGS', {});
    expect(started.execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=2', '--max-old-space-size=144', '--heap-growing-percent=20']));
    expect(started.execArgv).not.toContain('--max-semi-space-size=8');
    expect(started.malloc).toEqual({ MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(WORKER_PROCESS_SETTINGS.v8Flags).not.toEqual(API_PROCESS_SETTINGS.v8Flags);
  });

  it("keeps an operator's own choices: a heap flag given, NODE_COMPILE_CACHE, a disabled cache, a malloc variable", async () => {
    const own = join(scratch, 'own-cache');
    const started = await startedProcess('WORKER_PROCESS_SETTINGS', { NODE_COMPILE_CACHE: own, MALLOC_ARENA_MAX: '4' }, ['--heap-growing-percent=50']);
    expect(started.execArgv).toContain('--heap-growing-percent=50');
    expect(started.execArgv).not.toContain('--heap-growing-percent=20');
    expect(started.execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=2', '--max-old-space-size=144']));
    expect(started.cache).toBe(own);
    expect(started.malloc).toEqual({ MALLOC_ARENA_MAX: '4', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect((await startedProcess('API_PROCESS_SETTINGS', { NODE_DISABLE_COMPILE_CACHE: '1' })).cache).toBeUndefined();
  });

  it("adds no malloc variable where the operator tunes glibc with GLIBC_TUNABLES", async () => {
    const started = await startedProcess('WORKER_PROCESS_SETTINGS', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' });
    expect(started.malloc).toEqual({});
    expect(started.execArgv).toContain('--max-semi-space-size=2');
  });

  it('TENANT_REGISTRY_V8_FLAGS=off leaves the process as it was started', async () => {
    const started = await startedProcess('WORKER_PROCESS_SETTINGS', { TENANT_REGISTRY_V8_FLAGS: 'off' });
    expect(started.execArgv).toEqual([]);
    expect(started.cache).toBeUndefined();
    expect(started.malloc).toEqual({});
  });
});
