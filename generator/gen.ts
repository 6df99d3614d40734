/**
 * `mantyx-wire gen`: load the schema, run every emitter, then write the
 * output folder or (`--check`) compare it. Exit codes: 0 done or up to date,
 * 1 `--check` found differences, 2 the schema, the generator or the
 * arguments failed.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { CliEnv } from "./cli.js";
import { EMITTERS, generate, startLevelThread, usesLevelThread, type StartedThread } from "./emit/index.js";
import { spareLevelWorker } from "./emit/validators/level-thread.js";
import { DEFAULT_RUNTIME } from "./emit/runtime-import.js";
import { formatDiagnostic } from "./diagnostics.js";
import { collectDiagnostics, documentDiagnostics } from "./emit/diagnostics.js";
import { formatError, isEmitError, locateEmitError } from "./errors.js";
import { loadSchema, locateInSchema } from "./load/index.js";
import type { LoadedSchema } from "./model.js";
import { fillFixtureCopies, planFixtureCopies } from "./fixtures-copy.js";
import { diffOutput, isUpToDate, writeOutput, type OutputDiff } from "./write.js";

export interface GenOptions {
  readonly schema: string;
  readonly out: string;
  /** The folder `$ref`s may read files from (default: the schema's folder). */
  readonly root?: string;
  readonly check?: boolean;
  readonly debug?: boolean;
  readonly runtime?: string;
  /**
   * Folders that also get the fixture suite (`fixtures/` of the output),
   * byte for byte: the copies a Go module embeds and a Python wheel ships.
   * Each is owned by the generator like `--out`, and `--check` compares it.
   */
  readonly fixturesCopy?: readonly string[];
}

export async function gen(options: GenOptions, io: CliEnv): Promise<number> {
  const started = performance.now();
  const outDir = path.resolve(io.cwd, options.out);
  const shownOut = `${path.relative(io.cwd, outDir).split(path.sep).join("/") || "."}/`;
  const shownSchema = path.relative(io.cwd, path.resolve(io.cwd, options.schema)).split(path.sep).join("/");
  const emitters = io.emitters ?? EMITTERS;
  let loaded: LoadedSchema | undefined;
  // Emitters name places by JSON pointer; the loader knows their file:line:col.
  const locate = (pointer: string) => (loaded === undefined ? undefined : locateInSchema(loaded, pointer));
  // The validators' level thread: its worker starts now, while the document is read, and gets the document
  // as soon as it is final, while the loader hashes and checks it (emit/validators/level-thread.ts).
  const spare = usesLevelThread(emitters)
    ? spareLevelWorker(fileSize(path.resolve(io.cwd, options.schema)))
    : undefined;
  let thread: StartedThread | undefined;
  try {
    const plannedCopies = planFixtureCopies(options.fixturesCopy ?? [], outDir, io.cwd);
    loaded = await loadSchema(options.schema, {
      cwd: io.cwd,
      ...(options.root !== undefined && { root: options.root }),
      onModel: (content) => {
        thread = startLevelThread({ ...content, runtime: options.runtime }, emitters, spare);
      },
    });
    const model = { ...loaded, runtime: options.runtime };
    const generated = generate(model, emitters, thread);
    generated.catch(() => undefined); // awaited below
    // Made on this thread while the level thread works (before its wait for it); reported only if the run succeeds.
    const documentNotes = documentDiagnostics(model);
    const { files, diagnostics } = await generated;
    const copies = fillFixtureCopies(plannedCopies, files);
    const ran = new Set(emitters.map((emitter) => emitter.name));
    for (const diagnostic of collectDiagnostics(model, diagnostics, documentNotes).filter((d) => ran.has(d.emitter)))
      io.stderr(`${formatDiagnostic(diagnostic, locate)}\n`);
    const ms = (): number => Math.round(performance.now() - started);
    if (options.check) {
      const targets: Array<{ shown: string; diff: OutputDiff; count: number }> = [
        { shown: shownOut, diff: await diffOutput(outDir, files), count: files.length },
      ];
      for (const copy of copies)
        targets.push({ shown: copy.shown, diff: await diffOutput(copy.dir, copy.files), count: copy.files.length });
      const stale = targets.filter((t) => !isUpToDate(t.diff));
      if (stale.length === 0) {
        const folders = [shownOut, ...copies.map((c) => c.shown)].join(", ");
        io.stdout(
          `mantyx-wire gen --check: ${folders} ${copies.length > 0 ? "are" : "is"} up to date (${files.length} files, ${ms()} ms)\n`,
        );
        return 0;
      }
      const rows = stale.flatMap(({ shown, diff }) => [
        ...diff.stale.map((file) => `  stale    ${shown}${file}`),
        ...diff.missing.map((file) => `  missing  ${shown}${file}`),
        ...diff.extra.map((file) => `  extra    ${shown}${file}`),
      ]);
      const copyFlags = copies.map((c) => ` --fixtures-copy ${c.shown.slice(0, -1)}`).join("");
      io.stderr(
        `mantyx-wire gen --check: ${stale.map((t) => t.shown).join(", ")} ${stale.length === 1 ? "is" : "are"} out of date with ${shownSchema}:\n${rows.join("\n")}\n` +
          `Run \`mantyx-wire gen --schema ${shownSchema} --out ${shownOut.slice(0, -1)}${options.runtime !== undefined && options.runtime !== DEFAULT_RUNTIME ? ` --runtime ${options.runtime}` : ""}${copyFlags}\` (in the @mantyx/wire-types repository: \`npm run gen\`) to regenerate it, then commit the result.\n`,
      );
      return 1;
    }
    const summary = await writeOutput(outDir, files, io.cwd);
    for (const copy of copies) await writeOutput(copy.dir, copy.files, io.cwd);
    const copied = copies.length > 0 ? `; the fixture suite copied to ${copies.map((c) => c.shown).join(", ")}` : "";
    io.stdout(
      `mantyx-wire gen: ${files.length} files in ${shownOut} (${summary.written} written, ${summary.unchanged} unchanged, ${summary.deleted} deleted)${copied} in ${ms()} ms\n`,
    );
    return 0;
  } catch (error) {
    if (isEmitError(error)) locateEmitError(error, locate);
    io.stderr(`${formatError(error, { debug: options.debug === true })}\n`);
    return 2;
  } finally {
    // `generate` ends the thread it was given; these end what a failed load left (ending twice is harmless).
    thread?.value?.close();
    spare?.close();
  }
}

/** The size of `file` in bytes; 0 where it cannot be read (the loader reports why). */
function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
