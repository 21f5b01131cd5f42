import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createWriteStream, openSync } from 'node:fs';
import { resolve } from 'node:path';
export { freePort } from '../platform/freePort.ts';

const projectRoot = resolve(import.meta.dirname, '..');


export interface Child {
  process: ChildProcess;
  pid: number;
  /** SIGTERM, then SIGKILL to the whole process group (the service's PostgreSQL and Temporal included) after graceMs. */
  stop(graceMs?: number): Promise<void>;
}

/** The log files this run has written to. */
const logsOfThisRun = new Set<string>();

/**
 * A Node script of the project (or of another checkout of it, `root`) as its own process (and process group, so
 * nothing it starts can outlive the bench). Its last output is kept and shown when it exits early.
 */
export function startNode(
  script: string,
  env: NodeJS.ProcessEnv,
  onExit: (code: number | null, stderr: string) => void,
  options: { stdoutFile?: string; root?: string } = {},
): Child {
  // A service's log lines (LOG_LEVEL=info, as it runs) go straight to a file: the bench process, which is also the
  // load generator, never handles them, so they cost the service what they cost in production and nothing more.
  // A run's first start of a log empties it: a reused data directory kept every earlier run's lines, without bound.
  const stdout = options.stdoutFile ? openSync(options.stdoutFile, logsOfThisRun.has(options.stdoutFile) ? 'a' : 'w') : 'pipe';
  if (options.stdoutFile) logsOfThisRun.add(options.stdoutFile);
  const root = options.root ?? projectRoot;
  const child = spawn(process.execPath, [resolve(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'pipe'],
    detached: true,
  });
  if (typeof stdout === 'number') closeSync(stdout);
  let stderr = '';
  // Drained so a chatty child never blocks on a full pipe; warnings and errors are what LOG_LEVEL=warn leaves.
  const logFile = env.BENCH_CHILD_LOG ? createWriteStream(env.BENCH_CHILD_LOG) : undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
    logFile?.write(chunk);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
    logFile?.write(chunk);
  });
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    child.once('exit', (code) => {
      exited = true;
      onExit(code, stderr);
      resolveExit();
    }),
  );
  return {
    process: child,
    pid: child.pid!,
    async stop(graceMs = 30_000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the first stdout line matching `pattern` (e.g. the baseline's `listening <port>`). */
export function waitForLine(child: Child, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolveLine, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    child.process.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = pattern.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolveLine(match);
      }
    });
  });
}

/** Polls `url` until it answers 200. */
export async function waitForHttp(url: string, timeoutMs: number, isAlive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive()) throw new Error(`process exited before ${url} answered`);
    try {
      const response = await fetch(url);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
