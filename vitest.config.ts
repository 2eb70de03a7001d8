import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['common/**/*.test.ts', 'main/**/*.test.ts', 'test/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Native addons (sharp, node-screenshots) are safest in forked processes.
    pool: 'forks',
    globalSetup: ['test/tempRoot.globalSetup.ts'],
    // Under CI also write a JSON report: .ci/run prints its "N passed, N failed" line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
  },
});
