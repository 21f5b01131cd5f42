import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TurnBatchedLines, type LineTarget } from '../../platform/turnBatchedLines.ts';

/** A destination that records what it is handed and when it is flushed. */
function recordingTarget() {
  const calls: string[] = [];
  const target: LineTarget = {
    write: (text: string) => void calls.push(`write ${text}`),
    flush: (cb) => {
      calls.push('flush');
      cb?.();
    },
    flushSync: () => void calls.push('flushSync'),
  };
  return { calls, target };
}

const nextTurn = () => new Promise((done) => setImmediate(done));

describe('TurnBatchedLines', () => {
  it('hands the lines of one turn to the destination as one text, in the order written, at the end of the turn', async () => {
    const { calls, target } = recordingTarget();
    const batch = new TurnBatchedLines(target);
    batch.write('a\n');
    batch.write('b\n');
    batch.write('c\n');
    expect(calls).toEqual([]);
    await nextTurn();
    expect(calls).toEqual(['write a\nb\nc\n']);
    batch.write('d\n');
    await nextTurn();
    expect(calls).toEqual(['write a\nb\nc\n', 'write d\n']);
  });

  it('hands what it gathered over before the destination is flushed, and writes nothing twice', async () => {
    const { calls, target } = recordingTarget();
    const batch = new TurnBatchedLines(target);
    batch.write('a\n');
    await new Promise<void>((done) => batch.flush(() => done()));
    batch.write('b\n');
    batch.flushSync();
    await nextTurn();
    expect(calls).toEqual(['write a\n', 'flush', 'write b\n', 'flushSync']);
  });

  it('a destination that refuses lines at the end of a turn costs those lines, not the process, and the next turn is handed over again', async () => {
    const handed: string[] = [];
    let refusing = true;
    const target: LineTarget = {
      write: (text: string) => {
        if (refusing) throw new Error('SonicBoom destroyed');
        handed.push(text);
      },
      flush: (cb) => cb?.(),
      flushSync: () => undefined,
    };
    const batch = new TurnBatchedLines(target);
    batch.write('lost\n');
    await nextTurn();
    refusing = false;
    batch.write('kept\n');
    await nextTurn();
    expect(handed).toEqual(['kept\n']);
  });

  it.each([
    ['the process exits in the same turn', 'process.exit(3)', 3],
    ['an uncaught error ends the process', "throw new Error('boom')", 1],
  ])('an access line written just before the process ends still reaches stdout: %s', (_, ending, status) => {
    const logger = resolve(import.meta.dirname, '../../platform/logger.ts');
    const program = [
      `import { accessLoggerOf, createLogger } from ${JSON.stringify(logger)};`,
      "accessLoggerOf(createLogger('info', 'tenant-registry-api')).info({ requestId: 'r-last', status: 200 }, 'request');",
      ending,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8', timeout: 20_000 });
    expect(child.status).toBe(status);
    const lines = child.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([expect.objectContaining({ requestId: 'r-last', status: 200, msg: 'request', name: 'tenant-registry-api' })]);
  });
});
