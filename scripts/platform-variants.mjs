/**
 * The runtime modules with a browser variant, and how a build picks one:
 * - `runtime/client/internal/platform` (the client's redirects, User-Agent
 *   and failure reasons: a browser owns or hides them);
 * - `runtime/sse/framing` (the SSE decoder's bytes -> lines: the server one
 *   is built around Node's TextDecoder fast path, the browser one is smaller).
 * One home for both ways the choice is made:
 * - The packed package: scripts/build.mjs points each importer's compiled
 *   import at the package's own import (`#client-platform`, `#sse-framing`:
 *   package.json `imports`), whose `browser` condition names the browser
 *   variant; edge runtimes that also set `browser` (workerd, edge-light,
 *   worker, react-native) are listed before it and get the server one.
 * - Bundles made from this repository's sources for a browser (the size
 *   bench, the Chromium test): the `browserPlatform` esbuild plugin below.
 */
import { fileURLToPath } from "node:url";

/** Each variant: its module (no extension), the package import, and the modules importing it, by the specifier they use. */
export const VARIANTS = [
  {
    module: "runtime/client/internal/platform",
    import: "#client-platform",
    importers: { "runtime/client/core": "./internal/platform.js" },
  },
  {
    module: "runtime/sse/framing",
    import: "#sse-framing",
    importers: {
      "runtime/sse/iterate": "./framing.js",
      "runtime/sse/parser": "./framing.js",
      "runtime/client/stream-run": "../sse/framing.js",
    },
  },
];

/** The conditions of a package import, in order: edge runtimes before `browser`. */
export const SERVER_CONDITIONS = ["workerd", "edge-light", "worker", "react-native"];

const root = new URL("../", import.meta.url);

/** Each importer's file, by the specifier it imports a variant module with, and that module's browser variant: what both plugins below resolve. */
const browserFiles = VARIANTS.flatMap((variant) =>
  Object.entries(variant.importers).map(([file, specifier]) => ({
    importer: fileURLToPath(new URL(`${file}.ts`, root)),
    specifier,
    browser: fileURLToPath(new URL(`${variant.module}.browser.ts`, root)),
  })),
);

/** The browser variant `importer` (an absolute path) gets for `specifier`, or undefined when that import has none. */
export const browserVariantOf = (specifier, importer) =>
  browserFiles.find((f) => f.specifier === specifier && f.importer === importer)?.browser;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** esbuild: every variant's importers resolve it to its browser variant, as the package's `browser` condition does. */
export const browserPlatform = {
  name: "browser-platform",
  setup(build) {
    const specifiers = [...new Set(browserFiles.map((f) => f.specifier))];
    build.onResolve({ filter: new RegExp(`^(${specifiers.map(escapeRegExp).join("|")})$`) }, (args) => {
      const path = browserVariantOf(args.path, args.importer);
      return path === undefined ? undefined : { path };
    });
  },
};
