import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // test/wasm-memory.test.ts calls gc() to show that dropped readers are reclaimed.
    execArgv: ['--expose-gc'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
