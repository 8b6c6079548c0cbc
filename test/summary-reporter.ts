// Ends a run with one plain line, "N passed, N failed, N skipped", which CI
// logs and tools read without parsing vitest's colored summary.
import type { Reporter, TestModule } from 'vitest/node'

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0, failed = 0, skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      if (module.state() === 'failed' && module.children.size === 0) failed++ // a file that failed to load
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}
