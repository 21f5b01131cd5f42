import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends every run with one plain line, `Tests: N passed, N failed, N skipped`, after vitest's own summary.
 * Vitest's summary is not among the closing lines CI reads (and carries colour codes there), so without this line
 * CI records the run as having executed no test. A file that failed to load counts as one failed test.
 */
export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      let failedHere = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedHere += 1;
        else skipped += 1;
      }
      if (failedHere === 0 && testModule.state() === 'failed') failedHere = 1;
      failed += failedHere;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
