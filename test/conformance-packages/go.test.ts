/**
 * The Go module as an SDK uses it: the module (conformance/go, with the
 * fixtures it embeds) copied to a scratch folder outside the repository, and
 * another module there, required through a `replace` directive, whose own
 * `go test` runs the suite through conformance.Run with its own adapter: its
 * own frame decoding, the reference SSE decoder, and the reference validator
 * without x-max-utf8-bytes (this SDK does not enforce byte limits yet, so
 * the cases tagged with it are its known failures). Each tier's passed count
 * must be the manifest's minus those. Then an embedded fixture is changed
 * and `go test` must stop with the manifest error naming it.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { casesOf, expectTierLines, knownFailuresFile, REPO, scratchDir } from "./support.js";

const MODULE = "github.com/mantyx/wire-types/conformance/go";

const SDK_TEST = `package othersdk

import (
	"encoding/json"
	"testing"

	conformance "${MODULE}"
	"${MODULE}/reference"
)

// decodeEvent is this SDK's frame reading: an object of seq, type and an
// object "data" is the envelope; any other is flattened (payload beside seq,
// type from the frame or else from the event: line).
func decodeEvent(data json.RawMessage, eventLine string) (json.RawMessage, string, error) {
	var frame map[string]any
	if err := json.Unmarshal(data, &frame); err != nil {
		return nil, "", err
	}
	if _, nested := frame["data"].(map[string]any); nested {
		for k := range frame {
			if k != "data" && k != "seq" && k != "type" {
				nested = false
			}
		}
		if nested {
			return data, "envelope", nil
		}
	}
	event := map[string]any{}
	payload := map[string]any{}
	for k, v := range frame {
		if k == "seq" || k == "type" {
			event[k] = v
		} else {
			payload[k] = v
		}
	}
	event["data"] = payload
	if _, typed := event["type"]; !typed && eventLine != "message" {
		event["type"] = eventLine
	}
	out, err := json.Marshal(event)
	return out, "flat", err
}

func TestMantyxConformance(t *testing.T) {
	suite, err := conformance.LoadDefault()
	if err != nil {
		t.Fatal(err)
	}
	validate, err := reference.NewValidator(suite, "x-max-utf8-bytes")
	if err != nil {
		t.Fatal(err)
	}
	transcripts, err := reference.NewTranscriptChecker(suite)
	if err != nil {
		t.Fatal(err)
	}
	conformance.Run(t, conformance.Adapters{
		DecodeSSE:       reference.DecodeSSE,
		DecodeEvent:     decodeEvent,
		Validate:        validate,
		CheckTranscript: transcripts,
	}, conformance.Options{Suite: suite, KnownFailuresFile: "known_failures.txt"})
}
`;

let scratch: string;
let sdk: string;
const byteLimits = casesOf()
  .filter((c) => c.tags.includes("x-max-utf8-bytes"))
  .map((c) => c.id);

beforeAll(() => {
  scratch = scratchDir("go-conformance");
  cpSync(join(REPO, "conformance", "go"), join(scratch, "mantyx-conformance"), { recursive: true });
  sdk = join(scratch, "othersdk");
  mkdirSync(sdk);
  writeFileSync(
    join(sdk, "go.mod"),
    `module example.com/othersdk\n\ngo 1.22\n\nrequire ${MODULE} v0.0.0\n\nreplace ${MODULE} => ../mantyx-conformance\n`,
  );
  cpSync(join(REPO, "conformance", "go", "go.sum"), join(sdk, "go.sum"));
  writeFileSync(join(sdk, "conformance_test.go"), SDK_TEST);
  writeFileSync(
    join(sdk, "known_failures.txt"),
    knownFailuresFile("Our validator does not enforce x-max-utf8-bytes yet.", byteLimits),
  );
});

// A venv or a module copy is thousands of files: removing them takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

// -mod=mod: the scratch module's go.mod gains the indirect requirements itself (from the module cache).
const goTest = () =>
  spawnSync("go", ["test", "-count=1", "-v", "./..."], {
    cwd: sdk,
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", MANTYX_TIERS: "", MANTYX_FIXTURES_DIR: "" },
  });

describe("the Go module in a module outside the repository", () => {
  it("go test runs the suite through the SDK's adapter: per tier, the manifest's count minus the known failures", () => {
    const run = goTest();
    expect(run.status, run.stdout + run.stderr).toBe(0);
    console.log(
      run.stdout
        .split("\n")
        .filter((l) => l.includes("[mantyx-conformance]"))
        .join("\n"),
    );
    expect(byteLimits.length).toBeGreaterThan(0);
    expectTierLines(run.stdout, byteLimits);
  }, 180_000);

  it("go test stops with the manifest error when an embedded fixture was changed", () => {
    appendFileSync(join(scratch, "mantyx-conformance", "fixtures", "sse", "framing.json"), " ");
    const run = goTest();
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain("does not match its manifest.json");
    expect(run.stdout).toMatch(/sse\/framing\.json: sha256 [0-9a-f]{64}, manifest says [0-9a-f]{64}/);
    expect(run.stdout).not.toContain("[mantyx-conformance] tier");
  }, 180_000);
});
