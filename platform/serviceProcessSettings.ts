import { resolve } from 'node:path';
import { argv, env, execArgv, execPath } from 'node:process';

/** What a service process is started with: V8's heap flags and glibc's malloc settings (read by glibc at start). */
export interface ServiceProcessSettings {
  v8Flags: readonly string[];
  malloc: Readonly<Record<string, string>>;
}

/**
 * The API's settings, as the service is measured with them (docs/performance.md). Left to its defaults on a machine
 * with a lot of memory, V8 grows the young generation to 64 MB per semi-space and lets garbage pile up in the old
 * generation for a long while before it collects, so a process's memory under load grew far past its memory at
 * rest. The small young generation costs a little throughput on the hot paths.
 *
 * V8 keeps the pages a collection frees for its own reuse and gives them back only when told memory is short, which
 * Node never does: a process's RSS follows its heap's high-water mark, not its live data. The old generation is
 * capped, under which V8 collects sooner rather than letting the heap overshoot while marking: the cap holds the code
 * and modules plus the registry cache with every bound full (domain/reads/registryCache.ts), which in practice holds far
 * less since it forgets what can answer nothing.
 *
 * The old generation grows by 20 % of what the last full collection left before the next one starts: V8's own
 * factor let the heap grow well past its live set before the next full collection (a GC trace of the audit pages
 * and the export), and that slack was resident; the extra collections are short (docs/performance.md).
 *
 * glibc gives every thread that allocates its own malloc arena (up to 8 per core) and keeps what is freed in each;
 * V8's helper threads and libuv's pool are many threads. Two arenas hold the process's native memory together.
 */
export const API_PROCESS_SETTINGS: ServiceProcessSettings = {
  v8Flags: ['--max-semi-space-size=8', '--max-old-space-size=144', '--heap-growing-percent=20'],
  malloc: { MALLOC_ARENA_MAX: '2' },
};

/**
 * The worker's settings. It runs two V8 isolates (its main thread, and Temporal's workflow thread), each with a
 * young generation of its own, and its throughput is the tenant actors', not a hot path's: smaller semi-spaces than
 * the API's keep fewer heap pages resident in both. Temporal's Rust core, the workflow thread and libuv's pool
 * allocate natively; glibc's dynamic thresholds let freed memory stay in the arenas after a burst of large messages,
 * so the thresholds are fixed at glibc's own defaults (128 KB): a large block is mapped and unmapped, and a free top
 * of an arena is given back. On the benchmark's Temporal rows the worker's peak
 * RSS is lower with these than with the API's settings (docs/performance.md).
 */
export const WORKER_PROCESS_SETTINGS: ServiceProcessSettings = {
  v8Flags: ['--max-semi-space-size=2', '--max-old-space-size=144', '--heap-growing-percent=20'],
  malloc: { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '131072' },
};

/**
 * Node's compile cache (NODE_COMPILE_CACHE): the modules' type-stripped source and V8 code, written by the first start
 * and read by every later one. Without it each start compiles the TypeScript sources through Node's WebAssembly
 * type stripper, whose memory then stays in the process and which costs start-up time.
 * Entries are checked against the source they came from, so an upgrade recompiles what changed. Kept in the project's
 * own tree rather than Node's default under the shared temporary directory, where another local user could plant
 * entries (they hold code the process would run); where the tree is read-only (the container image) the cache is
 * silently off. An operator's NODE_COMPILE_CACHE (or NODE_DISABLE_COMPILE_CACHE=1) stands.
 */
export const serviceCompileCacheDir = () => resolve(import.meta.dirname, '..', '.cache', 'node-compile-cache');

const optionName = (flag: string) => flag.split('=')[0]!.replaceAll('_', '-');

/**
 * Node takes heap sizes only at start, from its command line or NODE_OPTIONS, and the compile cache and glibc read
 * their settings from the environment at start. An entry point imports only this module statically, calls this, and
 * loads its other modules afterwards (dynamically): unless the operator already chose each setting, this replaces
 * the process with itself plus the settings before anything else is loaded — process.execve keeps the pid, stdio and
 * environment, so to supervisors and `kill` it is the same process. An operator's heap flag, malloc variable,
 * GLIBC_TUNABLES (then no malloc variable is added) or compile cache choice stands; TENANT_REGISTRY_V8_FLAGS=off
 * leaves the process as started.
 */
export function applyServiceProcessSettings(wanted: ServiceProcessSettings): void {
  if (env.TENANT_REGISTRY_V8_FLAGS === 'off' || env.TENANT_REGISTRY_V8_FLAGS_APPLIED === '1') return;
  if (typeof process.execve !== 'function') return;
  const given = new Set([...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].filter(Boolean).map(optionName));
  const missing = wanted.v8Flags.filter((flag) => !given.has(optionName(flag)));
  const settings: Record<string, string> = {};
  if (env.GLIBC_TUNABLES === undefined) for (const [name, value] of Object.entries(wanted.malloc)) if (env[name] === undefined) settings[name] = value;
  if (env.NODE_COMPILE_CACHE === undefined && env.NODE_DISABLE_COMPILE_CACHE === undefined) settings.NODE_COMPILE_CACHE = serviceCompileCacheDir();
  if (missing.length === 0 && Object.keys(settings).length === 0) return;
  process.execve(execPath, [execPath, ...missing, ...execArgv, ...argv.slice(1)], { ...env, ...settings, TENANT_REGISTRY_V8_FLAGS_APPLIED: '1' });
}

