/**
 * `npm pack` of this repository's packages for the tests that install the
 * tarballs (test/package/*, test/conformance-packages/npm.test.ts). Packing
 * runs the `prepack` build, which deletes and rewrites dist/: two vitest
 * workers packing at once would pack each other's half-written dist/. So a
 * pack holds a lock (a directory: `mkdir` is atomic) that the others wait
 * for; a lock older than ten minutes is a killed run's and is taken over.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const lock = join(root, "node_modules", ".cache", "npm-pack.lock");
const STALE_MS = 10 * 60_000;

function acquire(): void {
  mkdirSync(join(lock, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // released meanwhile: try again
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

/** Packs the root package (or, with `workspace`, that workspace) into `destination`; the tarball's file name. */
export function npmPack(destination: string, workspace?: string): string {
  const before = new Set(readdirSync(destination));
  acquire();
  try {
    execFileSync(
      "npm",
      ["pack", "--silent", "--pack-destination", destination, ...(workspace ? ["-w", workspace] : [])],
      { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
    );
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  const tarball = readdirSync(destination).find((f) => f.endsWith(".tgz") && !before.has(f));
  if (tarball === undefined) throw new Error(`npm pack${workspace ? ` -w ${workspace}` : ""} wrote no tarball`);
  return tarball;
}
