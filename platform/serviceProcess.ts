import { spawn } from 'node:child_process';
import { SERVICE_NODE_FLAGS } from './serviceNodeFlags.ts';
import { resolve } from 'node:path';
import type { Logger } from './logger.ts';

const projectRoot = resolve(import.meta.dirname, '..');

export interface ServiceProcess {
  name: string;
  pid: number;
  /** Settles with the exit code (null when ended by a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, and SIGKILL if it is still running after graceMs; resolves once it has exited. */
  stop(graceMs: number): Promise<void>;
}

/**
 * A Node entry point of the project (`api/main.ts`, `worker/main.ts`) as a child process of `npm start`, on the same
 * Node, with the given environment and the parent's stdout and stderr, so its log lines reach the terminal as they are.
 */
export function startServiceProcess(name: string, script: string, env: NodeJS.ProcessEnv, log: Logger): ServiceProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, resolve(projectRoot, script)], { cwd: projectRoot, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  log.info({ process: name, pid: child.pid }, 'service process started');
  return {
    name,
    pid: child.pid!,
    exited,
    async stop(graceMs) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
