/**
 * Writing the output folder, and comparing it with what would be written.
 *
 * The folder is owned by the generator: after `writeOutput` it holds exactly
 * the generated files (stale ones are deleted), the same result as deleting
 * and rewriting it. It is done file by file instead, so unchanged files keep
 * their mtime (watchers and incremental builds stay quiet), the folder never
 * disappears under a running editor or test, and each file is replaced
 * atomically (write to a temporary sibling, then rename).
 */
import { randomBytes } from "node:crypto";
import { type Dirent, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readdir, readFile, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { WriteError } from "./errors.js";
import { GENERATED_MARKER, MANIFEST_PATH } from "./header.js";
import type { EmittedFile } from "./model.js";

export interface OutputDiff {
  /** On disk with different contents. */
  readonly stale: readonly string[];
  /** Should exist, does not. */
  readonly missing: readonly string[];
  /** On disk, not generated. */
  readonly extra: readonly string[];
}

export interface WriteSummary {
  readonly written: number;
  readonly unchanged: number;
  readonly deleted: number;
}

export function isUpToDate(diff: OutputDiff): boolean {
  return diff.stale.length === 0 && diff.missing.length === 0 && diff.extra.length === 0;
}

/** Compare the folder with `files` without touching it (reads synchronously, see `readIfPossible`). Paths are relative to `outDir`, POSIX. */
export async function diffOutput(outDir: string, files: readonly EmittedFile[]): Promise<OutputDiff> {
  const onDisk = new Set(await listFiles(outDir));
  const stale: string[] = [];
  const missing: string[] = [];
  for (const file of files) {
    if (!onDisk.has(file.path)) missing.push(file.path);
    else if (readFileSync(path.join(outDir, file.path), "utf8") !== file.contents) stale.push(file.path);
    onDisk.delete(file.path);
  }
  return { stale, missing, extra: [...onDisk].sort() };
}

export async function writeOutput(
  outDir: string,
  files: readonly EmittedFile[],
  cwd = process.cwd(),
): Promise<WriteSummary> {
  const existing = await listFiles(outDir);
  await assertOwned(outDir, existing, cwd);
  const onDisk = new Set(existing);
  let written = 0;
  let unchanged = 0;
  const folders = new Set<string>();
  for (const file of files) {
    const target = path.join(outDir, ...file.path.split("/"));
    if (onDisk.has(file.path) && readIfPossible(target) === file.contents) {
      unchanged++;
      continue;
    }
    // Synchronous, like the comparison above: hundreds of small files, nothing else running.
    ioSync(target, () => {
      const folder = path.dirname(target);
      if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
      folders.add(folder);
      const temporary = `${target}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
      writeFileSync(temporary, file.contents, "utf8");
      renameSync(temporary, target);
    });
    written++;
  }
  const keep = new Set(files.map((file) => file.path));
  const stale = existing.filter((file) => !keep.has(file));
  for (const file of stale) await io(path.join(outDir, file), (target) => rm(target, { force: true }));
  await removeEmptyDirectories(outDir);
  return { written, unchanged, deleted: stale.length };
}

/**
 * Refuse to empty a folder the generator did not write: a mistyped `--out`
 * (`--out .`, `--out src`) must not delete anything.
 */
async function assertOwned(outDir: string, existing: readonly string[], cwd: string): Promise<void> {
  const relativeToCwd = path.relative(outDir, cwd);
  if (!relativeToCwd.startsWith("..") && !path.isAbsolute(relativeToCwd)) {
    throw new WriteError(
      "unsafe-out-dir",
      outDir,
      "the output folder contains the working directory; writing there would delete your files.",
      "Pass a dedicated folder, e.g. `--out generated`.",
    );
  }
  if (existing.length === 0) return;
  const manifest = existing.includes(MANIFEST_PATH) ? await readFile(path.join(outDir, MANIFEST_PATH), "utf8") : "";
  if (!manifest.includes(GENERATED_MARKER)) {
    throw new WriteError(
      "unsafe-out-dir",
      outDir,
      `the output folder holds ${existing.length} file(s) but no generated ${MANIFEST_PATH}, so it was not written by mantyx-wire gen; refusing to replace its contents.`,
      "Choose an empty or new folder with `--out`, or empty this one yourself if it really is generated output.",
    );
  }
}

/** Every file under `dir` (recursively), relative POSIX paths, sorted. A missing folder is empty. */
async function listFiles(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new WriteError(
      "io",
      dir,
      `cannot read the output folder: ${(error as Error).message}`,
      "Check the --out path and its permissions.",
      { cause: error },
    );
  }
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

async function removeEmptyDirectories(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const child = path.join(dir, entry.name);
    await removeEmptyDirectories(child);
    if ((await readdir(child)).length === 0) await rmdir(child);
  }
}

/**
 * The file's text, or undefined if it cannot be read. Comparing hundreds of
 * small files is faster read synchronously (one system call each, ~0.1 s
 * less than through the thread pool), and nothing else runs meanwhile.
 */
function readIfPossible(target: string): string | undefined {
  try {
    return readFileSync(target, "utf8");
  } catch {
    return undefined;
  }
}

/** A file system failure on `target`, as the CLI reports it. */
function ioError(target: string, error: unknown): WriteError {
  return new WriteError(
    "io",
    target,
    `cannot write the output: ${(error as Error).message}`,
    "Check the --out path, its permissions and free disk space.",
    { cause: error },
  );
}

function ioSync<T>(target: string, action: (target: string) => T): T {
  try {
    return action(target);
  } catch (error) {
    throw ioError(target, error);
  }
}

async function io<T>(target: string, action: (target: string) => Promise<T>): Promise<T> {
  try {
    return await action(target);
  } catch (error) {
    throw ioError(target, error);
  }
}
