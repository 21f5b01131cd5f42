import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import type { Logger } from './logger.ts';
import { OutputTail } from './outputTail.ts';
import { temporalCliPath } from './temporalCli.ts';

export interface DevServerOptions {
  port: number;
  uiPort: number;
  /** The codec server the Web UI decodes payloads with (the API's /codec). */
  uiCodecEndpoint?: string;
  /** Folder for the server's SQLite file; omitted: state lives in memory (tests). */
  dataDir?: string;
  namespace?: string;
}

export interface RunningDevServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

async function answers(address: string): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 2000 });
    await connection.withDeadline(Date.now() + 2000, () => connection!.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => {});
  }
}

/** The development server ended before it served: its exit code and the last of what it printed. */
export class DevServerExited extends Error {
  constructor(exitCode: number | null, said: string) {
    super(`temporal dev server exited during start-up (exit code ${exitCode}): ${said.trim() || 'it printed nothing'}`);
  }
}

/** The Temporal CLI's development server (with its Web UI) as a child process of this one. */
export async function startTemporalDevServer(options: DevServerOptions, log: Logger): Promise<RunningDevServer> {
  const cli = await temporalCliPath();
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--ui-port', String(options.uiPort),
    ...(options.uiCodecEndpoint ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
    '--namespace', options.namespace ?? 'default',
    '--log-level', 'warn',
    // Search attributes and the UI work without these; keeps the dev server's start-up quick.
    '--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true',
  ];
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    // Write-ahead log, synced at checkpoints: safe against the process dying (what a development server faces), and a
    // fraction of the CPU and I/O of a rollback journal synced on every commit.
    args.push('--db-filename', join(options.dataDir, 'temporal.sqlite'), '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  const child: ChildProcess = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // The end of what it said, for the error when it exits during start-up (a port taken meanwhile, a bad flag).
  const said = new OutputTail();
  const hear = (chunk: Buffer) => {
    said.hear(chunk);
    log.debug({ temporal: String(chunk).trim() }, 'temporal dev server');
  };
  child.stdout?.on('data', hear);
  child.stderr?.on('data', hear);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 60_000;
  while (!(await canConnect(options.port))) {
    if (exited) throw new DevServerExited(child.exitCode, said.text);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('temporal dev server did not open its port within 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // The port opens before the frontend serves ("Frontend is not healthy yet", more so with a persisted database):
  // a worker connecting in that window fails, so wait until the server answers a request.
  while (!(await answers(`127.0.0.1:${options.port}`))) {
    if (exited) throw new DevServerExited(child.exitCode, said.text);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('temporal dev server did not become healthy within 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    address: `127.0.0.1:${options.port}`,
    uiUrl: `http://127.0.0.1:${options.uiPort}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
