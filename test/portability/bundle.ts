/**
 * ./consumer.ts bundled by esbuild for the browser platform (so a Node
 * built-in fails the build), as each runtime test loads it:
 * - "script": an iife whose `consume` lands in the global `portable`
 *   (a page's <script>, or a VM's script scope);
 * - "cli": an ES module that runs `consume` on its command-line arguments
 *   (Deno's or Node-style `process.argv`) and prints the result as JSON;
 * - "package": an ES module exporting `consume` that imports the package by
 *   its name (`@mantyx/wire-types`, `…/validators`) instead of this
 *   repository's sources: what the packed-package test runs.
 */
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { browserPlatform } from "../../scripts/platform-variants.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const consumer = JSON.stringify(fileURLToPath(new URL("./consumer.ts", import.meta.url)));

const ENTRIES = {
  script: `export { consume, redirected } from ${consumer};`,
  package: `export { consume } from ${consumer};`,
  cli: `import { consume } from ${consumer};
const args = (globalThis as any).Deno ? (globalThis as any).Deno.args : (globalThis as any).process.argv.slice(2);
console.log(JSON.stringify(await consume(args[0], args[1], args[2])));`,
};

/** The consumer's imports of the sources, as imports of the package. */
const viaPackage: Plugin = {
  name: "via-package",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/\.\.\/index\.js$/ }, () => ({ path: "@mantyx/wire-types", external: true }));
    b.onResolve({ filter: /^\.\.\/\.\.\/generated\/validators\/index\.js$/ }, () => ({
      path: "@mantyx/wire-types/validators",
      external: true,
    }));
  },
};

/** `browser`: with the client's browser platform module, as the package's `browser` condition gives a browser bundle (scripts/platform-variants.mjs). */
export async function bundleConsumer(kind: keyof typeof ENTRIES, { browser = false } = {}): Promise<string> {
  const out = await build({
    plugins: [...(kind === "package" ? [viaPackage] : []), ...(browser ? [browserPlatform] : [])],
    stdin: { contents: ENTRIES[kind], resolveDir: root, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    format: kind === "script" ? "iife" : "esm",
    ...(kind === "script" ? { globalName: "portable" } : {}),
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}
