// Ends a run with the plain line "N passed, N failed, N skipped", which CI reads whatever the test runner.
import type { Reporter, TestModule } from "vitest/node";

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") count.passed++;
        else if (state === "failed") count.failed++;
        else count.skipped++;
      }
      // A file that failed to load has no tests to count: count it as a failure.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) count.failed++;
    }
    count.failed += unhandledErrors.length;
    process.stdout.write(`\n${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
