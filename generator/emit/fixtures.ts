/**
 * Emitter "fixtures": the cross-language fixture suite in generated/fixtures/.
 * (The emitter object, `fixturesEmitter` at the end of this file, runs it
 * with the message cases' error lists and receive-level verdicts from the
 * validators' level thread, ./validators/level-thread.ts, where there is one.)
 *
 *   fixtures/manifest.json          versions, counts, sha256 of every file, dropped/omitted cases
 *   fixtures/README.md              the format
 *   fixtures/case-format.json       a JSON Schema of the case files
 *   fixtures/schema.json            the component schemas as one JSON Schema 2020-12 document (the strict level)
 *   fixtures/schema.receive.json    the same at the receive level (what `receive` cases are judged against)
 *   fixtures/messages/<Name>.json   message cases, one file per component
 *   fixtures/sse/framing.json       SSE framing cases
 *   fixtures/sse/mantyx.json        MANTYX streams with typed events
 *   fixtures/flows/<name>.json      scripted exchanges
 *   fixtures/transcripts.json       whole-run transcripts and the sequence rules
 *
 * Pure function of the loaded model (plus the hand-written cases beside the
 * schema, schema/cases/*.yaml); deterministic: no randomness, no clock.
 */
import { createHash } from "node:crypto";
import { loadHandCases } from "../cases/load-cases.js";
import { headerText } from "../header.js";
import type { EmitContext, EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { readTranscriptRules } from "../transcript/rules.js";
import { fixturesOptIn } from "./opt-in.js";
import { casesDirOf, schemaFileOf, type FixturesOptions } from "./fixtures/cases-dir.js";
import { checkFlow, flowFileName, flows } from "./fixtures/flows.js";
import { checkCaseFormat } from "./fixtures/case-format-check.js";
import { suiteJson } from "./fixtures/suite-json.js";
import { SUITE_VERSION, caseFormatSchema, fixturesReadme } from "./fixtures/format-doc.js";
import type { Json } from "./fixtures/json.js";
import { LiveAjv } from "./fixtures/live-ajv.js";
import { planMessageSuite, type MessageGroup, type MessageSuite } from "./fixtures/message-cases.js";
import { liveCaseJudges, type CaseJudges } from "./fixtures/case-judges.js";
import { checkSseCases, flatFrameCases, framingCases, mantyxCases } from "./fixtures/sse-cases.js";
import { buildTranscriptGroups } from "./fixtures/transcript-cases.js";
import { reachableComponents, TIERS, type Tier } from "./fixtures/tiers.js";
import { createLevels, type Levels } from "./validators/levels.js";
import { receiveComponents } from "./validators/receive-level.js";
import { receivedComponents } from "./validators/received-components.js";

export const FIXTURES_DIR = "fixtures";
export const SCHEMA_ID = "https://mantyx.invalid/wire-types/fixtures/schema.json";
export const RECEIVE_SCHEMA_ID = "https://mantyx.invalid/wire-types/fixtures/schema.receive.json";

export type { FixturesOptions } from "./fixtures/cases-dir.js";

/** The suite: every case file, the manifest and the case format; `levels` is the run's (`context.levels`), or a cache of its own. */
export function emitFixtures(
  model: LoadedSchema,
  options: FixturesOptions = {},
  levels: Levels = createLevels(model),
): EmittedFile[] {
  return planFixtures(model, options, liveCaseJudges(levels), levels).finish();
}

/**
 * The suite in two steps, around what `judges` answer for the message cases
 * (./fixtures/case-judges.ts): everything else is done here, and `finish`,
 * once the judges have settled, writes the message files and the manifest.
 */
export function planFixtures(
  model: LoadedSchema,
  options: FixturesOptions,
  judges: CaseJudges,
  levels: Levels,
): { finish(): EmittedFile[] } {
  const casesDir = casesDirOf(schemaFileOf(model), options);
  const schemas = model.schemas;
  // The validators' own compiled functions judge the cases (./validators/levels.ts): here the strict level's
  // verdicts; the all-errors level's lists through `judges`, and here only to explain a flow that fails.
  const ajv = new LiveAjv(schemas, {
    shared: { check: () => levels.ajv("all-errors"), accept: levels.ajv("strict") },
    prepared: levels.prepared("strict"),
  });
  const rules = readTranscriptRules(schemas);
  const protocolVersion = String(
    (model.document.info as unknown as Record<string, unknown>)["x-protocol-version"] ?? "unknown",
  );

  const files = new Map<string, { contents: string; cases: number }>();
  const tiers: Record<Tier, number> = { behaviour: 0, receive: 0, strict: 0 };
  const put = (path: string, value: unknown, cases: number): void => {
    files.set(path, { contents: `${suiteJson(value)}\n`, cases });
  };

  put(
    "schema.json",
    { $schema: "https://json-schema.org/draft/2020-12/schema", $id: SCHEMA_ID, components: { schemas } },
    0,
  );
  const receiveSchemas = receiveComponents(schemas) as typeof schemas;
  put(
    "schema.receive.json",
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: RECEIVE_SCHEMA_ID,
      components: { schemas: receiveSchemas },
    },
    0,
  );
  const received = reachableComponents(schemas, receivedComponents(model.document));

  const handCases = loadHandCases(casesDir);
  const messages = planMessageSuite(schemas, ajv, handCases, { judges, received });

  // Decoding both frame shapes and running flows: what every SDK must do.
  const behaviour = <T extends { description: string }>({ description, ...rest }: T): T & { tier: Tier } =>
    ({ description, tier: "behaviour", ...rest }) as T & { tier: Tier };
  const framing = framingCases().map(behaviour);
  const mantyx = [...mantyxCases(), ...flatFrameCases()].map(behaviour);
  checkSseCases([...framing, ...mantyx]);
  put("sse/framing.json", framing, framing.length);
  put("sse/mantyx.json", mantyx, mantyx.length);
  tiers.behaviour += framing.length + mantyx.length;

  const allFlows = flows();
  for (const flow of allFlows) {
    checkFlow(flow, model.document, ajv, rules);
    put(flowFileName(flow), behaviour(flow), 1);
  }
  tiers.behaviour += allFlows.length;
  if (new Set(allFlows.map(flowFileName)).size !== allFlows.length)
    throw new Error("Two flows share a file name; give them distinct descriptions.");

  const example = ((schemas["RunTranscript"] as { examples?: Array<{ events: Json[] }> }).examples ?? [])[0]?.events;
  const transcripts = buildTranscriptGroups(rules, ajv, example, allFlows);
  const transcriptCases = transcripts.reduce((n, g) => n + g.tests.length, 0);
  tiers.strict += transcriptCases;
  put("transcripts.json", transcripts, transcriptCases);

  put("case-format.json", caseFormatSchema, 0);
  return {
    finish: () =>
      finishFixtures(model, {
        files,
        tiers,
        put,
        messages,
        protocolVersion,
        sse: framing.length + mantyx.length,
        flows: allFlows.length,
        transcriptCases,
      }),
  };
}

/** The second step of `planFixtures`: the message files, the format check and the manifest. */
function finishFixtures(
  model: LoadedSchema,
  {
    files,
    tiers,
    put,
    messages,
    protocolVersion,
    sse,
    flows: flowCount,
    transcriptCases,
  }: {
    files: Map<string, { contents: string; cases: number }>;
    tiers: Record<Tier, number>;
    put: (path: string, value: unknown, cases: number) => void;
    messages: { finish(): MessageSuite };
    protocolVersion: string;
    sse: number;
    flows: number;
    transcriptCases: number;
  },
): EmittedFile[] {
  const suite = messages.finish();
  let messageCases = 0;
  let tagged = 0;
  const withoutValid: string[] = [];
  const withoutInvalid: string[] = [];
  for (const [path, groups] of suite.files) {
    const tests = groups.flatMap((g: MessageGroup) => g.tests);
    messageCases += tests.length;
    tagged += tests.filter((t) => t.tags !== undefined).length;
    for (const t of tests) tiers[t.tier]++;
    const name = path.slice("messages/".length, -".json".length);
    if (!tests.some((t) => t.valid)) withoutValid.push(name);
    if (!tests.some((t) => !t.valid)) withoutInvalid.push(name);
    put(path, groups, tests.length);
  }
  checkCaseFormat(files);

  // With the header already in place, the generator leaves the text (and so its sha256) as it is.
  files.set("README.md", { contents: `<!-- ${headerText(model)} -->\n\n${fixturesReadme(protocolVersion)}`, cases: 0 });

  const sorted = [...files.keys()].sort();
  const manifest = {
    suite: "@mantyx/wire-types fixtures",
    suiteVersion: SUITE_VERSION,
    protocolVersion,
    schemaVersion: String(model.document.info.version),
    generator: `@mantyx/wire-types ${model.generatorVersion}`,
    source: { path: model.sourcePath, sha256: model.hash },
    counts: {
      messages: messageCases,
      messagesTaggedWithVendorKeywords: tagged,
      messageFiles: suite.files.size,
      sse,
      flows: flowCount,
      transcripts: transcriptCases,
      tiers: Object.fromEntries(TIERS.map((t) => [t, tiers[t]])),
    },
    coverage: { componentsWithoutValidCases: withoutValid, componentsWithoutInvalidCases: withoutInvalid },
    files: Object.fromEntries(
      sorted.map((p) => [p, { cases: files.get(p)!.cases, sha256: sha256(files.get(p)!.contents) }]),
    ),
    dropped: {
      about:
        "Generated mutations whose intended verdict (or rule) live ajv does not share are not written. 'unconstructed': mutations that flipped an if/then/else condition. 'duplicates': equal to another case of the same file.",
      total: suite.dropped.length,
      unconstructed: suite.unconstructed,
      duplicates: suite.duplicates,
      handWrittenDisagreements: suite.handDisagreements.length,
      cases: [...suite.dropped, ...suite.handDisagreements],
    },
    omitted: {
      about: `Cases over ${64 * 1024} bytes of data are not shipped (they would weigh megabytes); the TypeScript tests run them from schema/cases.`,
      cases: suite.omitted,
    },
  };
  const out: EmittedFile[] = sorted.map((p) => ({ path: `${FIXTURES_DIR}/${p}`, contents: files.get(p)!.contents }));
  out.push({ path: `${FIXTURES_DIR}/manifest.json`, contents: `${JSON.stringify(manifest, null, 2)}\n` });
  return out;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The emitter: the fixture suite, in `fixtures/`. */
/** Opt-in (./opt-in.ts): a document without `x-fixture-suite` gets no fixtures/ (and needs no cases/ folder). */
export const fixturesEmitter: Emitter = {
  name: "fixtures",
  emit: async (model, context) => ({
    files: fixturesOptIn(model).skipped === undefined ? await emitFixturesInParallel(model, context) : [],
    diagnostics: [],
  }),
};

/** `emitFixtures`, with the message cases' error lists and receive-level verdicts from the level thread (./validators/level-thread.ts) where there is one. */
async function emitFixturesInParallel(model: LoadedSchema, context: EmitContext): Promise<EmittedFile[]> {
  const thread = context.levelThread();
  if (thread === undefined) return emitFixtures(model, {}, context.levels);
  const plan = planFixtures(model, {}, thread.judges, context.levels);
  await thread.settled();
  return plan.finish();
}
