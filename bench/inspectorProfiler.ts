/**
 * A V8 CPU profile of a running Node process of the service, taken over the inspector protocol while a load runs.
 *
 * The process is started with `--inspect-port=<port>` in its NODE_OPTIONS, which opens nothing; SIGUSR1 opens its
 * inspector on that port (Node's documented way to attach to a running process). So the profile is of the very
 * process the bench measured, after every row before it, not of a fresh one started for the purpose.
 */
import type { CpuProfile } from './cpuProfileSummary.ts';

interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** Sampling every 250 µs: a profile of a few seconds then holds samples enough to rank a busy path's functions. */
const SAMPLING_INTERVAL_US = 250;

export class InspectorProfiler {
  readonly #pid: number;
  readonly #port: number;

  constructor(pid: number, port: number) {
    this.#pid = pid;
    this.#port = port;
  }

  /** Profiles the process while `during` runs. */
  async profile(during: () => Promise<unknown>): Promise<CpuProfile> {
    const socket = await this.#connect();
    try {
      let nextId = 0;
      const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
      socket.addEventListener('message', (event) => {
        const reply = JSON.parse(String(event.data)) as Reply;
        const waiter = reply.id === undefined ? undefined : pending.get(reply.id);
        if (!waiter) return;
        pending.delete(reply.id!);
        if (reply.error) waiter.reject(new Error(reply.error.message));
        else waiter.resolve(reply.result ?? {});
      });
      socket.addEventListener('close', () => {
        for (const waiter of pending.values()) waiter.reject(new Error('the inspector closed the connection'));
      });
      const call = (method: string, params: Record<string, unknown> = {}) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const id = ++nextId;
          pending.set(id, { resolve, reject });
          socket.send(JSON.stringify({ id, method, params }));
        });
      await call('Profiler.enable');
      await call('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
      await call('Profiler.start');
      // The profiler is stopped whether or not the load failed, so a failed row leaves no profiler running.
      const failure = await during().then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      const { profile } = (await call('Profiler.stop')) as { profile: CpuProfile };
      await call('Profiler.disable');
      if (failure) throw failure.error;
      return profile;
    } finally {
      socket.close();
    }
  }

  async #connect(): Promise<WebSocket> {
    const url = await this.#debuggerUrl();
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`could not connect to the inspector at ${url}`)), { once: true });
    });
    return socket;
  }

  /** The inspector's WebSocket address, opening the inspector first if it is not open yet. */
  async #debuggerUrl(): Promise<string> {
    const list = `http://127.0.0.1:${this.#port}/json/list`;
    const targets = async () => ((await (await fetch(list)).json()) as { webSocketDebuggerUrl: string }[])[0]?.webSocketDebuggerUrl;
    try {
      const url = await targets();
      if (url) return url;
    } catch {
      // not open yet
    }
    process.kill(this.#pid, 'SIGUSR1');
    for (let attempt = 0; attempt < 50; attempt += 1) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        const url = await targets();
        if (url) return url;
      } catch {
        // opening
      }
    }
    throw new Error(`process ${this.#pid} opened no inspector on port ${this.#port} after SIGUSR1`);
  }
}
