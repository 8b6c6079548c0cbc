import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
  },
})
