import { defineConfig, type Plugin } from "vitest/config";
import { browserVariantOf } from "./scripts/platform-variants.mjs";

const shared = {
  // The machine has 2 cores; keep worker count modest so timing-sensitive
  // HTTP tests are not starved.
  maxWorkers: 2,
  testTimeout: 30_000,
  // Suites that compile every validator in a beforeAll take seconds, more
  // when the shared machine is busy (the default is 10 s).
  hookTimeout: 60_000,
};

/** Every runtime module with a browser variant resolved to it, as a browser bundle gets it (scripts/platform-variants.mjs). */
const browserVariants: Plugin = {
  name: "browser-variants",
  enforce: "pre",
  resolveId: (source, importer) => (importer === undefined ? null : (browserVariantOf(source, importer) ?? null)),
};

/**
 * The tests of what has a browser variant, run again on the variants
 * (project `browser-variants`): the SSE decoder's and the event stream's.
 * Not those that measure the server framing's own machinery (its fast
 * path, its counted decode work).
 */
export const ON_BROWSER_VARIANTS = [
  "test/sse/**/*.test.ts",
  "test/client/{stream,resume,reconnect}.test.ts",
  "test/audit/{sse,streams,fault-gaps}.test.ts",
  "test/conformance/official-captures.test.ts",
];
const SERVER_FRAMING_ONLY = ["test/sse/fast-path.test.ts", "test/sse/linearity.test.ts"];

/** The generator imports the runtime as the package `@mantyx/wire-types`: here, its sources (tsconfig.json `paths`). */
const resolve = { tsconfigPaths: true };

export default defineConfig({
  test: {
    ...shared,
    projects: [
      { extends: false, resolve, test: { ...shared, name: "node", include: ["test/**/*.test.ts"] } },
      {
        extends: false,
        resolve,
        plugins: [browserVariants],
        test: { ...shared, name: "browser-variants", include: ON_BROWSER_VARIANTS, exclude: SERVER_FRAMING_ONLY },
      },
    ],
  },
});
