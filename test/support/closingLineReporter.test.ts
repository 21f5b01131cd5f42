import { describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import ClosingLineReporter from './closingLineReporter.ts';

function moduleOf(state: 'passed' | 'failed', tests: Array<'passed' | 'failed' | 'skipped'>): TestModule {
  return {
    state: () => state,
    children: { *allTests() { for (const s of tests) yield { result: () => ({ state: s }) }; } },
  } as unknown as TestModule;
}

function closingLine(modules: TestModule[], unhandled: unknown[] = []): string {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    new ClosingLineReporter().onTestRunEnd(modules, unhandled);
    return String(write.mock.calls.at(-1)?.[0]);
  } finally {
    write.mockRestore();
  }
}

describe('closingLineReporter', () => {
  it('ends the run with the plain line of passed, failed and skipped tests CI reads', () => {
    const line = closingLine([moduleOf('passed', ['passed', 'passed', 'skipped']), moduleOf('failed', ['passed', 'failed'])]);
    expect(line.trim()).toBe('Tests: 3 passed, 1 failed, 1 skipped');
    expect(line.endsWith('\n')).toBe(true);
  });

  it('counts a file that failed to load, and an unhandled error, as failed tests', () => {
    expect(closingLine([moduleOf('failed', [])], [new Error('boom')]).trim()).toBe('Tests: 0 passed, 2 failed, 0 skipped');
  });
});
