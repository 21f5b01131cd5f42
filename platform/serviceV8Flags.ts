import { argv, env, execArgv, execPath } from 'node:process';

/**
 * The V8 heap sizing the service is measured with (docs/performance.md). Left to its defaults on a machine with a lot
 * of memory, V8 grows the young generation to 64 MB per semi-space and lets garbage pile up in the old generation
 * for hundreds of megabytes before it collects, so an all-in-one process idling at ~220 MB went past 500 MB under
 * load. Live data stays well under 100 MB (the registry cache is bounded), so the old generation is capped at 3×
 * that; the small young generation costs a few percent of throughput on the hot paths.
 */
export const SERVICE_V8_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=192'];

/**
 * glibc gives every thread that allocates its own malloc arena (up to 8 per core) and keeps what is freed in each;
 * the worker's Rust runtime, V8's helper threads and libuv's pool are many threads. Two arenas hold the process's
 * native memory together. Read by glibc at start, hence set here too; an operator's own value stands.
 */
export const SERVICE_MALLOC_ARENA_MAX = '2';

const optionName = (flag: string) => flag.split('=')[0]!.replaceAll('_', '-');

/**
 * Node takes heap sizes only at start, from its command line or NODE_OPTIONS. An entry point imports this module
 * first: unless the operator already chose sizes (either way) it replaces the process with itself plus the flags —
 * process.execve keeps the pid, stdio and environment, so to supervisors and `kill` it is the same process.
 * TENANT_REGISTRY_V8_FLAGS=off leaves the process as started.
 */
function applyServiceV8Flags(): void {
  if (env.TENANT_REGISTRY_V8_FLAGS === 'off' || env.TENANT_REGISTRY_V8_FLAGS_APPLIED === '1') return;
  if (typeof process.execve !== 'function') return;
  const given = new Set([...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].filter(Boolean).map(optionName));
  const missing = SERVICE_V8_FLAGS.filter((flag) => !given.has(optionName(flag)));
  const mallocArenas = env.MALLOC_ARENA_MAX === undefined ? { MALLOC_ARENA_MAX: SERVICE_MALLOC_ARENA_MAX } : {};
  if (missing.length === 0 && Object.keys(mallocArenas).length === 0) return;
  process.execve(execPath, [execPath, ...missing, ...execArgv, ...argv.slice(1)], { ...env, ...mallocArenas, TENANT_REGISTRY_V8_FLAGS_APPLIED: '1' });
}

applyServiceV8Flags();
