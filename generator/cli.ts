/**
 * `mantyx-wire`: the command line.
 *
 *   mantyx-wire gen [--schema <path>] [--out <dir>] [--check] [--debug]
 *
 * Exit codes: 0 done (or up to date), 1 `--check` found differences,
 * 2 the schema, the generator or the arguments failed.
 *
 * Paths: `--schema` and `--out` are taken relative to the current
 * directory (or absolute); everything else is found from the schema file's
 * absolute location (the hand-written fixture cases: the folder `cases`
 * beside it, required; an empty folder opts out) or from this package (the
 * templates). The output does not depend on the current directory: headers
 * name the schema relative to the package that holds it (nearest
 * package.json; this repository's schema is `schema/openapi.yaml`, also when
 * read from node_modules/@mantyx/wire-types/), or by its file name outside
 * any package (generator/load/source-path.ts).
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Command, CommanderError } from "commander";
import { EMITTERS, generate } from "./emit/index.js";
import { formatDiagnostic } from "./diagnostics.js";
import { collectDiagnostics } from "./emit/diagnostics.js";
import { formatError, isEmitError, locateEmitError } from "./errors.js";
import { packageInfo } from "./load/package-info.js";
import type { Emitter, PreparedEmitter } from "./model.js";
import { diffOutput, isUpToDate, writeOutput } from "./write.js";

/** Where the CLI reads and writes; tests pass their own. */
export interface CliEnv {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** The emitters `gen` runs. Default: all of them (generator/emit/index.ts). */
  readonly emitters?: readonly Emitter[];
}

const processEnv: CliEnv = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
};

interface GenOptions {
  readonly schema: string;
  readonly out: string;
  readonly check?: boolean;
  readonly debug?: boolean;
}

/** Run the CLI with `args` (without `node` and the script). Resolves to the exit code. */
export async function runCli(args: readonly string[], io: CliEnv = processEnv): Promise<number> {
  let exitCode: number | undefined;
  const program = new Command()
    .name("mantyx-wire")
    .description("Generate typed wire artefacts for the MANTYX agent-runs protocol from its OpenAPI 3.1 schema.")
    .version(packageInfo().version, "-V, --version", "print the generator version")
    .helpOption("-h, --help", "show help")
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
  program
    .command("gen")
    .description("Generate the output folder from the schema (deletes and rewrites it), or check that it is up to date.")
    .option("--schema <path>", "the OpenAPI 3.1 schema (YAML or JSON); the hand-written fixture cases are read from cases/ beside it", "schema/openapi.yaml")
    .option("--out <dir>", "the output folder; everything in it is owned by the generator", "generated")
    .option("--check", "write nothing; exit 1 and list each stale, missing or extra file if the folder is out of date")
    .option("--debug", "print stack traces with errors")
    .action(async (options: GenOptions) => {
      exitCode = await gen(options, io);
    });
  try {
    await program.parseAsync([...args], { from: "user" });
  } catch (error) {
    // Help and --version end with exit code 0; usage errors (already printed) with 2.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  if (exitCode === undefined) {
    io.stderr(program.helpInformation());
    return 2;
  }
  return exitCode;
}

async function gen(options: GenOptions, io: CliEnv): Promise<number> {
  const started = performance.now();
  const outDir = path.resolve(io.cwd, options.out);
  const shownOut = `${path.relative(io.cwd, outDir).split(path.sep).join("/") || "."}/`;
  const shownSchema = path.relative(io.cwd, path.resolve(io.cwd, options.schema)).split(path.sep).join("/");
  const emitters = io.emitters ?? EMITTERS;
  const prepared: PreparedEmitter[] = [];
  let loader: typeof import("./load/index.js") | undefined;
  let loaded: import("./model.js").LoadedSchema | undefined;
  try {
    // Emitters that can start before the model exists (a worker thread) do so now, beside loading,
    // and get the model as soon as it is built. The loader is imported after that, so even its
    // loading overlaps with their start.
    for (const emitter of emitters) if (emitter.prepare) prepared.push(emitter.prepare({ schemaPath: options.schema, cwd: io.cwd }));
    loader = await import("./load/index.js");
    const model = (loaded = await loader.loadSchema(options.schema, { cwd: io.cwd, onModelBuilt: (built) => prepared.forEach((handle) => handle.start?.(built)) }));
    const files = await generate(model, emitters);
    const locate = (pointer: string) => loader!.locateInSchema(model, pointer);
    const ran = new Set(emitters.map((emitter) => emitter.name));
    for (const diagnostic of (await collectDiagnostics(model)).filter((d) => ran.has(d.emitter))) io.stderr(`${formatDiagnostic(diagnostic, locate)}\n`);
    const ms = (): number => Math.round(performance.now() - started);
    if (options.check) {
      const diff = await diffOutput(outDir, files);
      if (isUpToDate(diff)) {
        io.stdout(`mantyx-wire gen --check: ${shownOut} is up to date (${files.length} files, ${ms()} ms)\n`);
        return 0;
      }
      const rows = [
        ...diff.stale.map((file) => `  stale    ${shownOut}${file}`),
        ...diff.missing.map((file) => `  missing  ${shownOut}${file}`),
        ...diff.extra.map((file) => `  extra    ${shownOut}${file}`),
      ];
      io.stderr(
        `mantyx-wire gen --check: ${shownOut} is out of date with ${shownSchema}:\n${rows.join("\n")}\n` +
          `Run \`mantyx-wire gen --schema ${shownSchema} --out ${shownOut.slice(0, -1)}\` (in the @mantyx/wire-types repository: \`npm run gen\`) to regenerate it, then commit the result.\n`,
      );
      return 1;
    }
    const summary = await writeOutput(outDir, files, io.cwd);
    io.stdout(
      `mantyx-wire gen: ${files.length} files in ${shownOut} (${summary.written} written, ${summary.unchanged} unchanged, ${summary.deleted} deleted) in ${ms()} ms\n`,
    );
    return 0;
  } catch (error) {
    // An emitter names places by JSON pointer; the loader knows their file:line:col.
    if (isEmitError(error) && loader !== undefined && loaded !== undefined) locateEmitError(error, (pointer) => loader!.locateInSchema(loaded!, pointer));
    io.stderr(`${formatError(error, { debug: options.debug === true })}\n`);
    return 2;
  } finally {
    for (const handle of prepared) handle.release();
  }
}

// Run when executed directly (`tsx generator/cli.ts ...`); bin/mantyx-wire.js calls runCli itself.
if (process.argv[1] !== undefined && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url) {
  tuneJitForOneRun();
  process.exitCode = await runCli(process.argv.slice(2));
}

/**
 * `gen` is one short batch run: most of its code (ajv's and yaml's
 * compilers, the emitters) is busy for a moment and then done. With V8's
 * default interrupt budget, TurboFan optimizes ~370 of its functions (main
 * thread and fixtures worker) on background threads, ~4.5 s of
 * compiler-thread time (`--trace-opt`) that on a 2-core machine competes
 * with the run itself. A ~15x budget leaves all but the hottest ~60
 * functions in the interpreter and baseline tiers (~0.4 s of compiling).
 * Measured on this project's 2-core machine (`node --import tsx
 * generator/cli.ts gen`): 3.1-3.25 s -> 2.5-2.6 s wall, 5.0-5.2 s -> 3.6-3.8 s
 * CPU. Only this process, only when run as the CLI: `runCli` callers (tests,
 * bin/) are not affected.
 */
function tuneJitForOneRun(): void {
  setFlagsFromString("--interrupt-budget=1000000");
}
