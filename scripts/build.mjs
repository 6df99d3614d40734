#!/usr/bin/env node
/**
 * `npm run build` (and `prepack`): the package's JavaScript in dist/.
 *   1. tsc -p tsconfig.build.json: index.ts, generated/*.ts and the runtime
 *      they import, as ES2022 modules with declarations;
 *   2. the generated validators (with validators/internal/), JavaScript plus .d.ts already, copied next
 *      to the compiled client, which imports them as ./validators/index.js;
 *   3. the compiled importers of each module with a browser variant pointed
 *      at the package import (`#client-platform`, `#sse-framing`:
 *      ./platform-variants.mjs), so a browser bundle gets the browser variants.
 * dist/ is build output (gitignored); generated/ stays the committed source.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VARIANTS } from "./platform-variants.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit" });
const from = join(root, "generated", "validators");
const to = join(dist, "generated", "validators");
// With internal/, the level modules the public validator modules share.
const copied = readdirSync(from, { recursive: true }).filter((file) => /\.(js|d\.ts)$/.test(file));
for (const file of copied) cpSync(join(from, file), join(to, file));
for (const variant of VARIANTS) {
  for (const [importer, specifier] of Object.entries(variant.importers)) {
    const file = join(dist, `${importer}.js`);
    const compiled = readFileSync(file, "utf8");
    const named = `from "${specifier}"`;
    if (compiled.split(named).length !== 2) throw new Error(`build: ${file} should import ${specifier} once`);
    writeFileSync(file, compiled.replace(named, `from "${variant.import}"`));
  }
}
console.log(`build: dist/ written (${copied.length} validator files copied)`);
