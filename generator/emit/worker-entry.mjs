// The entry of an EmitterWorker (./worker.ts); plain JavaScript, so the
// worker starts without a TypeScript loader.
//
// It runs the emitter's TypeScript module as one ES module that esbuild
// (which tsx uses too) bundles in memory from the sources, with the
// packages left as imports: ~0.1 s, where registering tsx in the worker
// (its own loader thread, then every module through it) costs ~0.6 s of CPU.
// Nothing is written to disk; the same sources give the same module.
import { readFile } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import * as esbuild from "esbuild";

const BUILTINS = new Set(builtinModules);
const IMPORT_META_URL = "__workerImportMetaUrl";
/** A package import resolved as this file's own imports are (the generator is one package). */
const resolvePackage = import.meta.resolve
  ? (specifier) => import.meta.resolve(specifier)
  : (specifier) => pathToFileURL(createRequire(import.meta.url).resolve(specifier)).href; // Node < 20.6

async function loadBundled(moduleUrl) {
  const entry = fileURLToPath(moduleUrl);
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node}`,
    // As tsx compiles: class and function names kept (tsx's `keepNames`).
    keepNames: true,
    // Each module keeps its own `import.meta.url` (files next to it are read through it): the
    // expression becomes a name that each module declares (see onLoad; esbuild renames per module).
    define: { "import.meta.url": IMPORT_META_URL },
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "mantyx-worker",
        setup(build) {
          // Packages and built-ins stay imports.
          build.onResolve({ filter: /^[^./]/ }, (args) => ({
            path: args.path.startsWith("node:") || BUILTINS.has(args.path) ? args.path : resolvePackage(args.path),
            external: true,
          }));
          build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => ({
            contents: `const ${IMPORT_META_URL} = ${JSON.stringify(pathToFileURL(args.path).href)};\n${await readFile(args.path, "utf8")}`,
            loader: "ts",
          }));
        },
      },
    ],
  });
  await esbuild.stop();
  // Named after the entry, so stack traces say where the code came from. (Node does not apply source
  // maps to data: modules; the frames name the functions, and `emitFixtures` & co. run on the main
  // thread when called directly, as the tests do.)
  const code = `${result.outputFiles[0].text}\n//# sourceURL=${moduleUrl}.bundle.mjs\n`;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}

// Started at once, before the model arrives; a failure is reported with the answer.
const loading = loadBundled(workerData.module);
loading.catch(() => {});
// Then the work that needs no model. If it fails, the run does that work itself (and reports the failure).
const prepare = workerData.prepare;
const prepared = prepare ? loading.then((module) => module[prepare.name](...prepare.args)).catch(() => undefined) : Promise.resolve(undefined);

parentPort.once("message", async ({ model, args }) => {
  try {
    const run = (await loading)[workerData.exportName];
    if (typeof run !== "function") throw new Error(`${workerData.module} has no function ${workerData.exportName}`);
    parentPort.postMessage({ files: await run(model, ...args, await prepared) });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    // A reported error (EmitError: code, emitter, fix, pointer) keeps its fields; ./worker.ts rebuilds it.
    const { code, emitter, fix, pointer } = /** @type {Record<string, unknown>} */ (e);
    const reported = e.name === "EmitError" && typeof code === "string" && typeof emitter === "string" && typeof fix === "string";
    parentPort.postMessage({
      error: { name: e.name, message: e.message, stack: e.stack, ...(reported ? { emitError: { code, emitter, fix, pointer: typeof pointer === "string" ? pointer : undefined } } : {}) },
    });
  }
});
