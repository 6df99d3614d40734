#!/usr/bin/env node
/**
 * Builds the published `mantyx-wire` command into generator/dist/ (run by
 * `npm pack` / `npm publish` of @mantyx/wire-gen through `prepack`):
 *   - dist/mantyx-wire.js: generator/main.ts, the generator's own modules
 *     and the pure-JavaScript code of its dependencies they import (ajv and
 *     its own, js-yaml, commander, the Handlebars runtime; the few functions
 *     it shares with the runtime, from @mantyx/wire-types/codegen/v1, a dev
 *     dependency read from its sources through the root tsconfig.json's
 *     `paths`) bundled by esbuild as ES modules for Node
 *     20, split so that each command loads its work only when it runs
 *     (`--help` loads commander and the CLI alone). Bundled, not imported
 *     file by file from node_modules: Node loading ajv's hundred CommonJS
 *     files from ES modules cost ~0.18 s of CPU per thread (the level
 *     thread loads them too). What is required at run time stays in
 *     node_modules (the prebuilt validators' ajv runtime helpers, yaml for
 *     error locations, the OAS 3.2 meta-schema), so the package's
 *     dependencies are unchanged; the
 *     licences of the bundled packages ship in THIRD_PARTY_LICENSES.txt;
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
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const generator = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? join(generator, "dist");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  // The validators' level thread beside the entry: `gen` runs it on a thread of its own (generator/emit/validators/level-thread.ts).
  entryPoints: {
    "mantyx-wire": join(generator, "main.ts"),
    "level-thread-worker": join(generator, "emit", "validators", "level-thread-worker.ts"),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  // Bundled CommonJS code (ajv's) calls `require` for Node's own modules: ES modules have none, so each file makes one.
  banner: {
    js: '#!/usr/bin/env node\nimport { createRequire as __mantyxWireRequire } from "node:module";\nconst require = __mantyxWireRequire(import.meta.url);',
  },
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});
writeFileSync(join(out, "THIRD_PARTY_LICENSES.txt"), thirdPartyLicenses(result.metafile));
chmodSync(join(out, "mantyx-wire.js"), 0o755);
// Every template beside the bin (generator/templates.ts names them: TEMPLATE_FILES).
for (const template of readdirSync(join(generator, "templates")))
  cpSync(join(generator, "templates", template), join(out, template));
cpSync(join(generator, "load", "oas-3.1-schema.json"), join(out, "oas-3.1-schema.json"));
cpSync(join(generator, "..", "generated", "openapi.json"), join(out, "mock-data", "openapi.json"));
cpSync(join(generator, "..", "generated", "fixtures", "flows"), join(out, "mock-data", "fixtures", "flows"), {
  recursive: true,
});
// Run from the sources by tsx (a dev dependency: building happens in the repository), with its paths as in the sources.
execFileSync(
  process.execPath,
  ["--import", "tsx", join(generator, "scripts", "prebuilt-assets.ts"), join(out, "prebuilt")],
  { cwd: join(generator, ".."), stdio: "inherit" },
);
console.log(`build: ${out}/mantyx-wire.js`);

/** The licence text of every package whose code the bundle holds (from esbuild's list of inputs), each under its name and version. */
function thirdPartyLicenses(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match === null) continue;
    const dir = input.slice(0, match.index + match[0].length);
    packages.set(match[1], dir);
  }
  const sections = [...packages]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, dir]) => {
      // esbuild names its inputs relative to its working folder, the process's.
      const folder = resolve(dir);
      const { version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
      const file = readdirSync(folder).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
      if (file === undefined) throw new Error(`build: ${name} is bundled but has no licence file to ship`);
      return `${name} ${version} (${license})\n\n${readFileSync(join(folder, file), "utf8").trim()}\n`;
    });
  return `The published mantyx-wire bundle holds code of these packages, under these licences.\n\n${sections.join(`\n${"-".repeat(72)}\n\n`)}`;
}
