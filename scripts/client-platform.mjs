/**
 * The client's platform module and its browser variant
 * (runtime/client/internal/platform.ts, platform.browser.ts): one home for
 * how a build picks between them.
 * - The packed package: scripts/build.mjs points the compiled core at the
 *   package's own import `#client-platform` (package.json `imports`), whose
 *   `browser` condition names the browser variant; edge runtimes that also
 *   set `browser` (workerd, edge-light, worker, react-native) are listed
 *   before it and get the server one.
 * - Bundles made from this repository's sources for a browser (the size
 *   bench, the Chromium test): the `browserPlatform` esbuild plugin below.
 */
import { fileURLToPath } from "node:url";

/** The specifier runtime/client/core.ts imports the platform module by, and the package import the build points it at. */
export const PLATFORM_SPECIFIER = "./internal/platform.js";
export const PLATFORM_IMPORT = "#client-platform";

const browserVariant = fileURLToPath(new URL("../runtime/client/internal/platform.browser.ts", import.meta.url));

/** esbuild: the core's platform module resolved to its browser variant, as the package's `browser` condition does. */
export const browserPlatform = {
  name: "browser-platform",
  setup(build) {
    build.onResolve({ filter: /^\.\/internal\/platform\.js$/ }, (args) => (/[\\/]runtime[\\/]client[\\/]core\.ts$/.test(args.importer) ? { path: browserVariant } : undefined));
  },
};
