#!/usr/bin/env node
/**
 * Builds the published `mantyx-wire` command into generator/dist/ (run by
 * `npm pack` / `npm publish` of @mantyx/wire-gen through `prepack`):
 *   - dist/mantyx-wire.js: generator/main.ts and the generator's own modules
 *     bundled by esbuild as ES modules for Node 20, split so that each
 *     command loads its work only when it runs (`--help` loads commander
 *     and the CLI alone); the dependencies (ajv, yaml, handlebars, esbuild,
 *     commander) stay imports of the installed packages;
 *   - the files the generator reads at run time, beside it: the client
 *     template and the OpenAPI 3.1 meta-schema;
 *   - in prebuilt/, what the sources compile at every run and the bundle
 *     loads instead (generator/prebuilt.ts): the meta-schema and case-format
 *     validators as ajv standalone code, the templates precompiled
 *     (generator/scripts/prebuilt-assets.ts);
 *   - the MANTYX artefacts `mantyx-wire mock` serves from, as data, in
 *     mock-data/: the bundled schema and the fixture suite's flow cases
 *     (generator/mock/artefacts.ts), so the mock runs where only this
 *     package is installed (`npx -p @mantyx/wire-gen mantyx-wire mock`).
 * `node generator/scripts/build.mjs <outdir>` builds elsewhere (tests).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const generator = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? join(generator, "dist");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await build({
  // The validators' level thread beside the entry: `gen` runs it on a thread of its own (generator/emit/validators/level-thread.ts).
  entryPoints: { "mantyx-wire": join(generator, "main.ts"), "level-thread-worker": join(generator, "emit", "validators", "level-thread-worker.ts") },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  chunkNames: "chunks/[name]-[hash]",
  banner: { js: "#!/usr/bin/env node" },
  legalComments: "none",
  logLevel: "warning",
});
chmodSync(join(out, "mantyx-wire.js"), 0o755);
for (const template of ["client.ts.hbs", "client-core.ts.hbs", "operations.ts.hbs", "operation-args.hbs", "operation-result.hbs", "operation-doc.hbs"]) cpSync(join(generator, "..", "templates", template), join(out, template));
cpSync(join(generator, "load", "oas-3.1-schema.json"), join(out, "oas-3.1-schema.json"));
cpSync(join(generator, "..", "generated", "openapi.json"), join(out, "mock-data", "openapi.json"));
cpSync(join(generator, "..", "generated", "fixtures", "flows"), join(out, "mock-data", "fixtures", "flows"), { recursive: true });
// Run from the sources by tsx (a dev dependency: building happens in the repository), with its paths as in the sources.
execFileSync(process.execPath, ["--import", "tsx", join(generator, "scripts", "prebuilt-assets.ts"), join(out, "prebuilt")], { cwd: join(generator, ".."), stdio: "inherit" });
console.log(`build: ${out}/mantyx-wire.js`);
