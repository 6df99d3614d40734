/**
 * The Python package as an SDK uses it: the wheel built from
 * conformance/python (flit_core, no build isolation), installed into a fresh
 * virtual environment in a scratch folder outside the repository, offline,
 * from the built file and a wheelhouse of its pinned dependencies
 * (requirements.txt), both made by scripts/test-env.mjs (npm test's first
 * step; this file runs it too, so it passes alone on a fresh machine), whose
 * test environment's Python (flit_core) builds the wheel. The SDK's
 * own pytest test runs the suite through `mantyx_wire_conformance.run` with
 * its own frame decoding, the reference SSE decoder and the reference
 * validator without x-max-utf8-bytes (its known failures); the installed
 * pytest plugin prints the per-tier lines, each the manifest's count minus
 * those. Then a fixture inside the installed package is changed and the run
 * must stop with the manifest error naming it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_PYTHON, ensurePython, WHEELHOUSE } from "../../scripts/test-env.mjs";
import { casesOf, expectTierLines, knownFailuresFile, REPO, scratchDir } from "./support.js";

const PACKAGE = join(REPO, "conformance", "python");

const SDK_TEST = `from pathlib import Path

from mantyx_wire_conformance import Adapters, load, read_known_failures, run
from mantyx_wire_conformance.reference import make_transcript_checker, make_validator
from mantyx_wire_conformance.sse_decoder import decode


def decode_event(data, event_line):
    """This SDK's frame reading: an object of seq, type and an object "data" is the envelope, any other is flattened."""
    if not isinstance(data, dict) or (isinstance(data.get("data"), dict) and set(data) <= {"seq", "type", "data"}):
        return data, "envelope"
    event = {k: data[k] for k in ("seq", "type") if k in data}
    event["data"] = {k: v for k, v in data.items() if k not in ("seq", "type")}
    if "type" not in event and event_line != "message":
        event["type"] = event_line
    return event, "flat"


def test_mantyx_conformance():
    suite = load()
    adapters = Adapters(
        decode_sse=decode,
        decode_event=decode_event,
        validate=make_validator(suite, without=["x-max-utf8-bytes"]),
        check_transcript=make_transcript_checker(suite),
    )
    known = read_known_failures(Path(__file__).with_name("known_failures.txt"))
    run(adapters, suite=suite, known_failures=known).raise_for_failures()
`;

let scratch: string;
let sdk: string;
let python: string;
const byteLimits = casesOf()
  .filter((c) => c.tags.includes("x-max-utf8-bytes"))
  .map((c) => c.id);
const quiet = { stdio: ["ignore", "ignore", "inherit"] as ["ignore", "ignore", "inherit"] };

beforeAll(() => {
  scratch = scratchDir("python-conformance");
  const testPython = ensurePython();
  const dist = join(scratch, "dist");
  const built = spawnSync(
    testPython,
    [
      "-m",
      "pip",
      "wheel",
      "--quiet",
      "--disable-pip-version-check",
      "--no-deps",
      "--no-build-isolation",
      "-w",
      dist,
      PACKAGE,
    ],
    { encoding: "utf8" },
  );
  if (built.status !== 0)
    throw new Error(`building the wheel with ${testPython} (flit_core, scripts/test-env.mjs) failed:\n${built.stderr}`);
  const wheel = readdirSync(dist).find((f) => f.endsWith(".whl"));
  if (wheel === undefined) throw new Error("pip wheel wrote no wheel");
  execFileSync(BASE_PYTHON, ["-m", "venv", join(scratch, "venv")], quiet);
  python = join(scratch, "venv", "bin", "python");
  execFileSync(
    python,
    [
      "-m",
      "pip",
      "install",
      "--quiet",
      "--disable-pip-version-check",
      "--no-index",
      "--find-links",
      WHEELHOUSE,
      `${join(dist, wheel)}[reference]`,
      "pytest",
    ],
    quiet,
  );
  sdk = join(scratch, "othersdk");
  mkdirSync(sdk);
  writeFileSync(join(sdk, "test_conformance.py"), SDK_TEST);
  writeFileSync(
    join(sdk, "known_failures.txt"),
    knownFailuresFile("Our validator does not enforce x-max-utf8-bytes yet.", byteLimits),
  );
}, 300_000);

// A venv or a module copy is thousands of files: removing them takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

const pytest = () =>
  spawnSync(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_conformance.py"], {
    cwd: sdk,
    encoding: "utf8",
    env: { ...process.env, MANTYX_TIERS: "", MANTYX_FIXTURES_DIR: "", PYTHONDONTWRITEBYTECODE: "1" },
  });

describe("the Python wheel in a fresh virtual environment outside the repository", () => {
  it("pytest runs the suite through the SDK's adapters: per tier, the manifest's count minus the known failures", () => {
    const run = pytest();
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const summary = run.stdout.slice(run.stdout.indexOf("MANTYX conformance"));
    console.log(summary);
    expect(summary).toContain(join(scratch, "venv"));
    expect(byteLimits.length).toBeGreaterThan(0);
    expectTierLines(summary, byteLimits);
  }, 180_000);

  it("stops with the manifest error when a fixture inside the installed package was changed", () => {
    const fixtures = execFileSync(python, ["-c", "import mantyx_wire_conformance as m; print(m.EMBEDDED_DIR)"], {
      encoding: "utf8",
    }).trim();
    expect(fixtures.startsWith(join(scratch, "venv"))).toBe(true);
    appendFileSync(join(fixtures, "sse", "framing.json"), " ");
    const run = pytest();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain("IntegrityError");
    expect(run.stdout).toContain("does not match its manifest.json");
    expect(run.stdout).toMatch(/sse\/framing\.json: sha256 [0-9a-f]{64}, manifest says [0-9a-f]{64}/);
  }, 180_000);
});
