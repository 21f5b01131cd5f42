import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Not imported here: importing it re-executes the importing process, which is what it is for.
const SERVICE_V8_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=144', '--heap-growing-percent=20'];
const settingsModule = resolve(import.meta.dirname, '../../platform/serviceProcessSettings.ts');
const scratch = await mkdtemp(join(tmpdir(), 'process-settings-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A process that imports the settings module first, as the entry points do, then loads a module and reports what it runs with. */
async function startedProcess(env: Record<string, string>, nodeOptions: string[] = []): Promise<{ execArgv: string[]; cache?: string; arenas?: string; pid: number }> {
  const code = `await import(${JSON.stringify(settingsModule)});
    const { flushCompileCache } = await import('node:module');
    await import(${JSON.stringify(resolve(import.meta.dirname, '../../platform/freePort.ts'))});
    flushCompileCache();
    console.log(JSON.stringify({ execArgv: process.execArgv.filter((a) => a.startsWith('--') && a !== '--input-type=module'), cache: process.env.NODE_COMPILE_CACHE, arenas: process.env.MALLOC_ARENA_MAX, pid: process.pid }));`;
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeOptions, '--input-type=module', '-e', code], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: scratch, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as never;
}

describe('the service processes re-execute themselves with their settings before loading anything else', () => {
  it("adds the V8 heap flags, two malloc arenas and a compile cache in the project's own tree", async () => {
    const started = await startedProcess({});
    expect(started.execArgv).toEqual(expect.arrayContaining(SERVICE_V8_FLAGS));
    expect(started.arenas).toBe('2');
    expect(started.cache).toBe(resolve(import.meta.dirname, '../../.cache/node-compile-cache'));
    // The modules it loaded are in the cache for the next start.
    expect((await readdir(started.cache!, { recursive: true })).length).toBeGreaterThan(0);
  });

  it("keeps an operator's own choices: a heap flag given, NODE_COMPILE_CACHE, a disabled cache, MALLOC_ARENA_MAX", async () => {
    const own = join(scratch, 'own-cache');
    const started = await startedProcess({ NODE_COMPILE_CACHE: own, MALLOC_ARENA_MAX: '4' }, ['--heap-growing-percent=50']);
    expect(started.execArgv).toContain('--heap-growing-percent=50');
    expect(started.execArgv).not.toContain('--heap-growing-percent=20');
    expect(started.execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--max-old-space-size=144']));
    expect(started.cache).toBe(own);
    expect(started.arenas).toBe('4');
    expect((await startedProcess({ NODE_DISABLE_COMPILE_CACHE: '1' })).cache).toBeUndefined();
  });

  it('TENANT_REGISTRY_V8_FLAGS=off leaves the process as it was started', async () => {
    const started = await startedProcess({ TENANT_REGISTRY_V8_FLAGS: 'off' });
    expect(started.execArgv).toEqual([]);
    expect(started.cache).toBeUndefined();
    expect(started.arenas).toBeUndefined();
  });
});
