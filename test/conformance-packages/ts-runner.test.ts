/**
 * The npm runner API (conformance/ts, `@mantyx/wire-types/conformance`)
 * from the sources, with adapters built on this package's own runtime (SSE
 * decoder, event layer, generated validators, transcript validator): every
 * case of every tier passes, so each tier's passed count is the manifest's.
 * Also: its own sha256 agrees with node:crypto; a suite that does not match
 * its manifest is refused, naming each file; known failures must fail.
 * (test/conformance-packages/npm.test.ts runs the packed package.)
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import * as validators from "../../generated/validators/index.js";
import { validateRunTranscript } from "../../generated/transcript.js";
import { decodeEventMessage } from "../../index.js";
import { frameShapeOf } from "../../runtime/events/index.js";
import { createSseParser, type SseMessage } from "../../runtime/sse/index.js";
import {
  loadSuite,
  parseKnownFailures,
  runConformance,
  sha256Hex,
  SuiteIntegrityError,
  suiteSourceFromFiles,
  type ConformanceAdapters,
  type LoadedSuite,
} from "../../conformance/ts/index.js";
import { folderSuiteSource, loadSuiteFromDisk, packagedFixturesDir } from "../../conformance/ts/node.js";

const byName = validators as unknown as Record<string, (data: unknown) => boolean>;

function ourAdapters(suite: LoadedSuite): ConformanceAdapters {
  // Components without a generated receive build are judged on the suite's receive document.
  const ajv = new Ajv2020({ strict: false, discriminator: false, validateFormats: false, unicodeRegExp: true });
  const receive = suite.json("schema.receive.json") as { $id: string };
  ajv.addSchema(receive);
  return {
    decodeSse(chunks) {
      const out: SseMessage[] = [];
      const parser = createSseParser({ onMessage: (m) => void out.push(m) });
      for (const c of chunks) parser.feed(c);
      parser.end();
      return out;
    },
    decodeEvent(data, eventLine) {
      const event = decodeEventMessage(
        { event: eventLine, data: JSON.stringify(data), id: "" },
        { validation: "off" },
      ) as object;
      return { event, shape: frameShapeOf(event) ?? "envelope" };
    },
    validate(level, component, instance) {
      const fn =
        level === "strict"
          ? byName[`validate${component}`]
          : (byName[`validate${component}Receive`] ?? ajv.getSchema(`${receive.$id}#/components/schemas/${component}`));
      if (fn === undefined) throw new Error(`no validator for ${component}`);
      return fn(instance) as boolean;
    },
    checkTranscript: (t) => validateRunTranscript(t).issues.map((i) => i.rule),
  };
}

describe("the npm runner API, from the sources", () => {
  it("its sha256 is SHA-256 (padding boundaries included)", () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(sha256Hex(bytes), `${n} bytes`).toBe(createHash("sha256").update(bytes).digest("hex"));
    }
  });

  it("every case of every tier passes through adapters on our own runtime", async () => {
    const suite = await loadSuiteFromDisk();
    expect(suite.origin).toBe(packagedFixturesDir());
    const report = await runConformance(suite, ourAdapters(suite));
    console.log(report.lines().join("\n"));
    expect(report.failures.slice(0, 5)).toEqual([]);
    expect(report.problems).toEqual([]);
    for (const t of report.tiers)
      expect([t.tier, t.passed, t.knownFailures, t.failed]).toEqual([
        t.tier,
        suite.manifest.counts.tiers[t.tier],
        0,
        0,
      ]);
    expect(report.ok).toBe(true);
  }, 120_000);

  it("a suite whose files do not match its manifest is refused, each file named", async () => {
    const dir = packagedFixturesDir();
    const source = folderSuiteSource(dir);
    const files: Record<string, Uint8Array> = {};
    for (const path of await source.list!()) files[path] = readFileSync(join(dir, path));
    files["sse/framing.json"] = new TextEncoder().encode("[]\n");
    delete files["transcripts.json"];
    files["messages/Extra.json"] = new TextEncoder().encode("[]\n");
    const error = await loadSuite(suiteSourceFromFiles(files, "the tampered copy")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SuiteIntegrityError);
    const message = (error as Error).message;
    expect(message).toContain("the fixture suite at the tampered copy does not match its manifest.json");
    expect(message).toMatch(/sse\/framing\.json: sha256 [0-9a-f]{64}, manifest says/);
    expect(message).toContain("transcripts.json: missing");
    expect(message).toContain("messages/Extra.json: not in the manifest");
  });

  it("known failures must fail: one that passes, or an id that is no case, fails the run; unselected tiers count nothing", async () => {
    const suite = await loadSuiteFromDisk();
    const ours = ourAdapters(suite);
    const { checkTranscript: _dropped, ...withoutTranscripts } = ours;
    const transcripts = (suite.json("transcripts.json") as Array<{ tests: Array<{ description: string }> }>).flatMap(
      (g) => g.tests.map((t) => `transcripts.json::${t.description}`),
    );
    const firstStrict = (
      suite.json("messages/ToolRef.json") as Array<{ tests: Array<{ description: string; tier: string }> }>
    )
      .flatMap((g) => g.tests)
      .find((t) => t.tier === "strict")!;
    const passing = `messages/ToolRef.json::${firstStrict.description}`;
    const listed = parseKnownFailures(
      `# no sequence-rule checker yet\n${transcripts.join("\n")}\n${passing}\nmessages/Nope.json::nothing\n`,
    );
    const report = await runConformance(suite, withoutTranscripts, { tiers: ["strict"], knownFailures: listed });
    const strict = report.tiers.find((t) => t.tier === "strict")!;
    expect([strict.knownFailures, strict.failed, strict.passed]).toEqual([
      transcripts.length,
      1,
      strict.manifest - transcripts.length - 1,
    ]);
    expect(report.failures.map((f) => [f.id, f.problem.includes("yet passes")])).toEqual([[passing, true]]);
    expect(report.problems).toEqual([
      `known failure "messages/Nope.json::nothing" is no case of the suite (a typo, or a case the suite no longer has): remove it`,
    ]);
    expect(report.lines()[1]).toMatch(/^\[mantyx-conformance\] tier behaviour: not selected \(manifest \d+\)$/);
    await expect(runConformance(suite, ours, { tiers: ["recieve"] })).rejects.toThrow(/unknown tier "recieve"/);
    await expect(
      runConformance(suite, { decodeSse: ours.decodeSse } as unknown as ConformanceAdapters),
    ).rejects.toThrow("the adapters lack decodeEvent, validate");
  }, 120_000);
});
