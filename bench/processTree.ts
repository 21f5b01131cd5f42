import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

interface ProcessEntry {
  pid: number;
  ppid: number;
  comm: string;
  /** CPU seconds so far, user + system, all threads. */
  cpu: number;
}

/** Every process on the machine, from /proc/<pid>/stat. */
function readProcessTable(): ProcessEntry[] {
  const table: ProcessEntry[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      table.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        cpu: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
      });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/** The project's entry point a Node process runs (`api/main.ts`, `worker/main.ts`), from its command line. */
export function entryPointOf(pid: number): string | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /(?:^|\/)((?:api|worker|scripts)\/\w+\.ts)$/.exec(args.find((arg) => arg.endsWith('.ts')) ?? '')?.[1];
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system, all threads) used so far, per process, with the group it is counted in. */
export type CpuSnapshot = Map<number, { group: string; seconds: number }>;

/**
 * CPU seconds used so far by a process and by each of its descendants, grouped: `api` and `worker` for those entry
 * points, `postgres` for PostgreSQL's processes, `rootGroup` for the root itself, else the command.
 */
export function cpuOfTree(rootPid: number, rootGroup = 'start'): CpuSnapshot {
  const procs = readProcessTable();
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const children = new Map<number, ProcessEntry[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const snapshot: CpuSnapshot = new Map();
  const groupOf = (p: ProcessEntry, isRoot: boolean) => {
    if (isRoot) return rootGroup;
    if (p.comm.startsWith('postgres')) return 'postgres';
    const entry = entryPointOf(p.pid);
    return entry?.startsWith('api/') ? 'api' : entry?.startsWith('worker/') ? 'worker' : p.comm;
  };
  const visit = (pid: number, isRoot: boolean) => {
    const self = byPid.get(pid);
    if (self) snapshot.set(pid, { group: groupOf(self, isRoot), seconds: self.cpu });
    for (const child of children.get(pid) ?? []) visit(child.pid, false);
  };
  visit(rootPid, true);
  return snapshot;
}

/**
 * CPU seconds per group between two snapshots, over the processes alive at the second. A process that exited
 * between them is left out instead of subtracting its whole life (PostgreSQL's backends and workers come and go);
 * one that started between them counts from zero.
 */
function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const groups = new Map<string, number>();
  for (const [pid, { group, seconds }] of after) groups.set(group, (groups.get(group) ?? 0) + seconds - (before.get(pid)?.seconds ?? 0));
  return groups;
}

/**
 * Resolves once a process tree uses less than a tenth of a core over a second (at most `timeoutMs`): work it
 * accepted during the previous run, such as provisioning handed off to the worker, is then done.
 */
export async function waitUntilQuiet(rootPid: number, log: (message: string) => void, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  let before = cpuOfTree(rootPid);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuOfTree(rootPid);
    if ([...cpuBetween(before, now).values()].reduce((sum, seconds) => sum + seconds, 0) < 0.1) return;
    if (Date.now() - started > timeoutMs) {
      log(`  still busy after ${timeoutMs / 1000} s; going on`);
      return;
    }
    before = now;
  }
}

/** The pid of the child of `parentPid` that runs the given entry point (e.g. `api/main.ts`). */
export function childRunning(parentPid: number, entryPoint: string): number | undefined {
  return readProcessTable().find((p) => p.ppid === parentPid && entryPointOf(p.pid) === entryPoint)?.pid;
}

/** CPU milliseconds a request between two snapshots: per group (`api 0.21, postgres 0.03`) and every process together. */
export interface RequestCpu {
  byGroup: string;
  total: number;
}

export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number): RequestCpu {
  const perGroup = [...cpuBetween(before, after)].map(([group, seconds]) => [group, (seconds * 1000) / Math.max(1, requests)] as const);
  return {
    byGroup: perGroup
      .filter(([, ms]) => ms >= 0.0005)
      .map(([group, ms]) => `${group} ${ms.toFixed(3)}`)
      .join(', '),
    total: perGroup.reduce((sum, [, ms]) => sum + ms, 0),
  };
}
