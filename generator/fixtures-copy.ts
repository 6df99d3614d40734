/**
 * `gen --fixtures-copy <dir>`: the fixture suite (`fixtures/` of the output)
 * written again, byte for byte, into folders of other ecosystems' packages:
 * a Go module can only `go:embed` files inside its own folder, and a wheel
 * ships package data from inside its package. Generating the copies (instead
 * of copying by hand or in a build step) keeps them under `gen --check`, so a
 * stale copy fails CI like a stale `generated/`.
 */
import path from "node:path";
import { WriteError } from "./errors.js";
import type { EmittedFile } from "./model.js";
import { FIXTURES_DIR } from "./emit/fixtures.js";

export interface FixturesCopy {
  /** Absolute folder. */
  readonly dir: string;
  /** The folder as printed: relative to the working directory, with a trailing `/`. */
  readonly shown: string;
  /** The suite's files, paths relative to the copy's folder. */
  readonly files: readonly EmittedFile[];
}

/** The copies' folders, checked before anything is generated: none may hold, or sit in, `--out` or another copy. */
export function planFixtureCopies(
  dirs: readonly string[],
  outDir: string,
  cwd: string,
): Array<Omit<FixturesCopy, "files">> {
  const plans: Array<Omit<FixturesCopy, "files">> = [];
  for (const given of dirs) {
    const dir = path.resolve(cwd, given);
    // The writer deletes what it did not generate, so no folder may hold another.
    if (overlaps(dir, outDir) || plans.some((c) => overlaps(c.dir, dir))) {
      throw new WriteError(
        "fixtures-copy",
        dir,
        "a `--fixtures-copy` folder may not be the output folder, another copy, or inside or around one of them: each is emptied of files the generator did not write.",
        "Give each copy a folder of its own outside `--out`, e.g. `--fixtures-copy conformance/go/fixtures`.",
      );
    }
    plans.push({ dir, shown: `${path.relative(cwd, dir).split(path.sep).join("/") || "."}/` });
  }
  return plans;
}

/** Each planned copy with the suite's files (`fixtures/` of the output, paths relative to the copy). */
export function fillFixtureCopies(
  plans: ReadonlyArray<Omit<FixturesCopy, "files">>,
  files: readonly EmittedFile[],
): FixturesCopy[] {
  const prefix = `${FIXTURES_DIR}/`;
  const suite = files
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({ path: f.path.slice(prefix.length), contents: f.contents }));
  if (plans.length > 0 && suite.length === 0) {
    throw new WriteError(
      "fixtures-copy",
      plans[0]!.dir,
      "`--fixtures-copy` was given, but this document produces no fixture suite (it does not opt in with `x-fixture-suite`).",
      "Drop `--fixtures-copy`, or add `x-fixture-suite: mantyx-agent-runs` at the document root.",
    );
  }
  return plans.map((plan) => ({ ...plan, files: suite }));
}

function overlaps(a: string, b: string): boolean {
  const inside = (x: string, y: string): boolean => {
    const rel = path.relative(y, x);
    return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
  };
  return inside(a, b) || inside(b, a);
}
