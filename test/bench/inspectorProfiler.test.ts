import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InspectorProfiler } from '../../bench/inspectorProfiler.ts';
import { summarizeCpuProfile } from '../../bench/cpuProfileSummary.ts';
import { freePort } from '../../platform/freePort.ts';

// A process that burns CPU in a function of a known name, as a service process under load would.
const BUSY_SCRIPT = `
function spinForProfile() { const end = Date.now() + 5; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1); return x; }
setInterval(spinForProfile, 1);
console.log('ready');
`;

describe('InspectorProfiler', () => {
  let child: ChildProcess;
  let port: number;
  let directory: string;

  beforeAll(async () => {
    port = await freePort();
    // Without on-stack replacement: a profile begun after V8 replaced the busy loop's frame with optimized code
    // gives that code's samples to its caller (listOnTimeout), which is a limit of attaching late, not of this class.
    directory = await mkdtemp(join(tmpdir(), 'inspector-profiler-'));
    const script = join(directory, 'busy.mjs');
    await writeFile(script, BUSY_SCRIPT);
    child = spawn(process.execPath, [`--inspect-port=127.0.0.1:${port}`, '--no-use-osr', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  });

  afterAll(async () => {
    child.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
  });

  it('opens the inspector of a running process started with only --inspect-port, and profiles it while the load runs', async () => {
    const profiler = new InspectorProfiler(child.pid!, port);
    const profile = await profiler.profile(() => new Promise((r) => setTimeout(r, 500)));
    const summary = summarizeCpuProfile(profile, process.cwd());
    expect(summary.busySamples).toBeGreaterThan(100);
    expect(summary.functions[0]!.name).toMatch(/^spinForProfile \(/);
  });

  it('profiles again over the inspector the first profile opened, and stops the profiler when the load fails', async () => {
    const profiler = new InspectorProfiler(child.pid!, port);
    await expect(profiler.profile(() => Promise.reject(new Error('the load failed')))).rejects.toThrow('the load failed');
    const profile = await profiler.profile(() => new Promise((r) => setTimeout(r, 200)));
    expect(summarizeCpuProfile(profile, process.cwd()).busySamples).toBeGreaterThan(0);
  });
});
