/**
 * A fixture suite, read through a `SuiteSource` (any way of reading its
 * files: the Node entry's folder reader, a map of bundled files, fetch) and
 * verified against manifest.json before anything runs: every file's sha256
 * must match, and, when the source can list its files, no other file may be
 * there.
 */
import { sha256Hex } from "./sha256.js";

/** How the runner reads a suite's files; paths are the manifest's (POSIX, relative). */
export interface SuiteSource {
  /** Where the suite is, for messages. */
  readonly origin: string;
  /** The file's bytes; rejects (or throws) when it does not exist. */
  read(path: string): Uint8Array | Promise<Uint8Array>;
  /** Every file's path, when the source can list them (to find files the manifest does not list). */
  list?(): readonly string[] | Promise<readonly string[]>;
}

export type Tier = "behaviour" | "receive" | "strict";
export const TIERS: readonly Tier[] = ["behaviour", "receive", "strict"];

export interface Manifest {
  readonly suiteVersion: string;
  readonly protocolVersion: string;
  readonly counts: {
    readonly messages: number;
    readonly sse: number;
    readonly flows: number;
    readonly transcripts: number;
    readonly tiers: Readonly<Record<Tier, number>>;
  };
  readonly files: Readonly<Record<string, { readonly cases: number; readonly sha256: string }>>;
}

/** A suite whose files matched its manifest when it was loaded. */
export interface LoadedSuite {
  readonly origin: string;
  readonly manifest: Manifest;
  /** A suite file, parsed (verified bytes, read once at load). */
  json(path: string): unknown;
  /** The manifest's JSON files under `prefix`, sorted. */
  files(prefix: string): string[];
}

/** A suite that is missing or unreadable. */
export class SuiteError extends Error {
  override readonly name: string = "SuiteError";
}

/** A suite whose files do not match its manifest.json: nothing of it runs. */
export class SuiteIntegrityError extends SuiteError {
  override readonly name = "SuiteIntegrityError";
  constructor(
    readonly origin: string,
    readonly problems: readonly string[],
  ) {
    super(
      `the fixture suite at ${origin} does not match its manifest.json (copy the suite again, unedited):\n  ${problems.join("\n  ")}`,
    );
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function parse(origin: string, path: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch (error) {
    throw new SuiteError(`${origin}/${path} is not JSON: ${(error as Error).message}`);
  }
}

/** Reads and verifies the suite; rejects with `SuiteIntegrityError` naming every changed, missing or unlisted file. */
export async function loadSuite(source: SuiteSource): Promise<LoadedSuite> {
  let raw: Uint8Array;
  try {
    raw = await source.read("manifest.json");
  } catch (error) {
    throw new SuiteError(
      `no fixture suite at ${source.origin} (cannot read manifest.json: ${(error as Error).message})`,
    );
  }
  const manifest = parse(source.origin, "manifest.json", raw) as Manifest;
  if (
    manifest === null ||
    typeof manifest !== "object" ||
    typeof manifest.files !== "object" ||
    manifest.files === null
  )
    throw new SuiteError(`${source.origin}/manifest.json lists no files`);
  const problems: string[] = [];
  const contents = new Map<string, Uint8Array>();
  for (const path of Object.keys(manifest.files).sort()) {
    let bytes: Uint8Array;
    try {
      bytes = await source.read(path);
    } catch {
      problems.push(`${path}: missing`);
      continue;
    }
    const actual = sha256Hex(bytes);
    if (actual !== manifest.files[path]!.sha256)
      problems.push(`${path}: sha256 ${actual}, manifest says ${manifest.files[path]!.sha256}`);
    contents.set(path, bytes);
  }
  if (source.list !== undefined) {
    for (const path of [...(await source.list())].sort())
      if (path !== "manifest.json" && !(path in manifest.files)) problems.push(`${path}: not in the manifest`);
  }
  if (problems.length > 0) throw new SuiteIntegrityError(source.origin, problems);
  const parsed = new Map<string, unknown>();
  return {
    origin: source.origin,
    manifest,
    json(path) {
      if (!parsed.has(path)) {
        const bytes = contents.get(path);
        if (bytes === undefined) throw new SuiteError(`${path} is not a file of the suite at ${source.origin}`);
        parsed.set(path, parse(source.origin, path, bytes));
      }
      return parsed.get(path);
    },
    files: (prefix) =>
      Object.keys(manifest.files)
        .filter((p) => p.startsWith(prefix) && p.endsWith(".json"))
        .sort(),
  };
}

/** A source over files already in memory (bundled, or fetched by the caller): text or bytes by path. */
export function suiteSourceFromFiles(
  files: Readonly<Record<string, string | Uint8Array>>,
  origin = "files in memory",
): SuiteSource {
  const encoder = new TextEncoder();
  return {
    origin,
    read(path) {
      const file = files[path];
      if (file === undefined) throw new SuiteError(`${path}: no such file`);
      return typeof file === "string" ? encoder.encode(file) : file;
    },
    list: () => Object.keys(files),
  };
}
