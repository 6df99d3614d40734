import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The machine has 2 cores; keep worker count modest so timing-sensitive
    // HTTP tests are not starved.
    maxWorkers: 2,
    testTimeout: 30_000,
    // Suites that compile every validator in a beforeAll take seconds, more
    // when the shared machine is busy (the default is 10 s).
    hookTimeout: 60_000,
  },
});
