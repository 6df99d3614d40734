/**
 * What `npm test` needs besides npm packages, set up by the test command
 * itself (its first step), so that it passes on a fresh machine with Node,
 * Go and Python but no pip package installed:
 * - a Python virtual environment of the test runners' pinned packages
 *   (conformance/python/requirements.txt: pytest, jsonschema...; and
 *   build-requirements.txt: flit_core, to build the conformance wheel),
 *   in node_modules/.cache/mantyx-wire-test-python, installed offline from
 * - a wheelhouse of the same pins, node_modules/.cache/mantyx-wire-conformance/wheelhouse
 *   (test/conformance-packages/python.test.ts installs the wheel into a
 *   fresh environment from it, offline);
 * - the Go runner's modules (`go mod download` in conformance/go).
 * Nothing comes from, or goes into, the system Python's site-packages.
 * Idempotent and silent when done: the environment carries a stamp of the
 * pins and the interpreter, and is made again (the wheelhouse too) only
 * when either changes; `go mod download` is a no-op with a warm cache.
 * Chromium (the browser test) is the one thing it does not install.
 *
 *   node scripts/test-env.mjs                 everything (npm test's first step)
 *   node scripts/test-env.mjs pytest [ARGS]   the Python part, then pytest in conformance/python (npm run test:py)
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../", import.meta.url));
const PY_PACKAGE = join(REPO, "conformance", "python");
const REQUIREMENTS = [join(PY_PACKAGE, "requirements.txt"), join(PY_PACKAGE, "build-requirements.txt")];
export const VENV = join(REPO, "node_modules", ".cache", "mantyx-wire-test-python");
export const WHEELHOUSE = join(REPO, "node_modules", ".cache", "mantyx-wire-conformance", "wheelhouse");
/** The Python that makes the environments: `$MANTYX_PYTHON`, else python3 (python on Windows). */
export const BASE_PYTHON = process.env.MANTYX_PYTHON || (process.platform === "win32" ? "python" : "python3");
const PIP = ["-m", "pip", "--quiet", "--disable-pip-version-check", "--no-input"];

/** A typed failure of the setup: what was being done, and the tool's own words. */
export class TestEnvError extends Error {
  name = "TestEnvError";
}

function run(command, args, what, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
  if (r.error?.code === "ENOENT")
    throw new TestEnvError(`${what}: \`${command}\` is not on PATH (npm test needs Go >= 1.22 and Python >= 3.11)`);
  if (r.error) throw new TestEnvError(`${what}: ${r.error.message}`);
  if (r.status !== 0)
    throw new TestEnvError(
      `${what} failed (\`${[command, ...args].join(" ")}\`, exit ${r.status}):\n${(r.stderr || r.stdout).trim().slice(-4000)}`,
    );
  return r.stdout;
}

/** The interpreter inside a virtual environment. */
export function pythonIn(env) {
  return process.platform === "win32" ? join(env, "Scripts", "python.exe") : join(env, "bin", "python");
}

/** What the environment was made from: the pins and the base interpreter. */
function stampOf() {
  const hash = createHash("sha256");
  for (const file of REQUIREMENTS) hash.update(readFileSync(file));
  hash.update(run(BASE_PYTHON, ["-c", "import sys; print(sys.version, sys.executable)"], "finding Python"));
  return hash.digest("hex");
}

/**
 * The test runners' Python, made once (and again when the pins or the
 * interpreter change); returns its interpreter's path.
 */
export function ensurePython({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const python = pythonIn(VENV);
  const stampFile = join(VENV, "mantyx-requirements.sha256");
  const stamp = stampOf();
  if (existsSync(python) && existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === stamp) return python;
  log(
    `test setup: the Python test environment (${REQUIREMENTS.map((f) => f.slice(REPO.length)).join(", ")}) into ${VENV.slice(REPO.length)} ...`,
  );
  rmSync(VENV, { recursive: true, force: true });
  rmSync(WHEELHOUSE, { recursive: true, force: true });
  run(
    BASE_PYTHON,
    ["-m", "venv", VENV],
    "creating the Python virtual environment (Debian/Ubuntu: apt-get install python3-venv)",
  );
  const requirements = REQUIREMENTS.flatMap((f) => ["-r", f]);
  run(
    python,
    [...PIP, "download", ...requirements, "-d", WHEELHOUSE],
    "downloading the pinned Python packages into the wheelhouse",
  );
  run(
    python,
    [...PIP, "install", "--no-index", "--find-links", WHEELHOUSE, ...requirements],
    "installing the pinned Python packages from the wheelhouse",
  );
  writeFileSync(stampFile, `${stamp}\n`);
  return python;
}

/** The Go runner's modules in the module cache (silent and quick when they are there). */
export function ensureGo() {
  run("go", ["mod", "download"], "downloading the Go runner's modules (conformance/go)", {
    cwd: join(REPO, "conformance", "go"),
  });
}

function main(argv) {
  if (argv[0] === "pytest") {
    const python = ensurePython();
    const r = spawnSync(python, ["-m", "pytest", ...argv.slice(1)], { cwd: PY_PACKAGE, stdio: "inherit" });
    if (r.error) throw r.error;
    return r.status ?? 1;
  }
  if (argv.length > 0) throw new TestEnvError(`unknown arguments: ${argv.join(" ")} (none, or: pytest [ARGS])`);
  ensurePython();
  ensureGo();
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof TestEnvError)) throw e;
    process.stderr.write(`scripts/test-env.mjs: ${e.message}\n`);
    process.exitCode = 1;
  }
}
