import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { deepEqual } from "../../runtime/validation/helpers.js";
import { jsonEqual } from "../../generator/emit/validators/json-equal.js";
import type { LoadedSchema } from "../../generator/model.js";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { FIXTURES, loadSchemaFile, SCHEMA_PATH } from "./support/load-schema.js";

const KEYS = ["constructor", "toString", "hasOwnProperty", "__proto__"] as const;

/** Inputs as JSON text, parsed per call so `__proto__` is an own key. */
const INPUTS = [
  "{}",
  '{"constructor":"x"}',
  '{"constructor":1}',
  '{"toString":"x"}',
  '{"toString":1}',
  '{"__proto__":"x"}',
  '{"__proto__":1}',
  '{"__proto__":{"a":1}}',
  '{"hasOwnProperty":1}',
  '{"hasOwnProperty":"x"}',
  '{"constructor":"x","__proto__":"y"}',
  '{"__proto__":"x","toString":"y"}',
] as const;

/** The JSON Schema verdict of each input, in INPUTS order (1 valid, 0 invalid), worked out by hand. */
const EXPECTED: Readonly<Record<string, string>> = {
  RequiredKeys: "000000000010",
  OptionalClosed: "100101001001",
  OptionalOpen: "111101001111",
  AdditionalSchema: "110101000111",
  Patterns: "110100100000",
  NamesEnum: "111001110010",
  NamesPattern: "111001110010",
  ProtoPatternToo: "111110001100",
  Unevaluated: "100001000000",
  DependentRequired: "111110001101",
  ConstObject: "000000100000",
  EnumObject: "010000010000",
};

describe("a mini schema declaring prototype-named properties", () => {
  let mini: LoadedSchema;
  let emitted: EmittedValidators;
  let live: ReturnType<typeof liveValidators>;
  beforeAll(async () => {
    mini = await loadSchemaFile(new URL("prototype-keys.yaml", FIXTURES));
    emitted = await emitToTempDir(mini);
    live = liveValidators(mini);
  });

  it("the table covers every component of the fixture", () => {
    expect(Object.keys(mini.schemas).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))(
    "%s: the verdicts JSON Schema gives, and live ajv's errors",
    async (name, verdicts) => {
      const validate = await emitted.get(name);
      const got = INPUTS.map((text) => {
        const fromEmitted = run(validate, JSON.parse(text));
        expect(run(live(name), JSON.parse(text)), `${name} ${text}`).toEqual(fromEmitted);
        return fromEmitted.valid ? "1" : "0";
      });
      expect(got.join("")).toBe(verdicts);
    },
  );
});

describe("uniqueItems on strings that are prototype names", () => {
  it("finds the duplicate, emitted and live alike", async () => {
    const schemas = {
      Names: { type: "array", items: { type: "string" }, uniqueItems: true },
    } as LoadedSchema["schemas"];
    const model: LoadedSchema = {
      document: { openapi: "3.1.0", info: { title: "t", version: "1" }, components: { schemas } },
      schemas,
      sourcePath: "t.yaml",
      hash: "0",
      generatorVersion: "0.0.0",
    };
    const validate = await (await emitToTempDir(model)).get("Names");
    const live = liveValidators(model)("Names");
    for (const [data, valid] of [
      [["__proto__", "__proto__"], false],
      [["constructor", "constructor"], false],
      [["constructor", "toString", "__proto__"], true],
    ] as const) {
      const fromEmitted = run(validate, JSON.parse(JSON.stringify(data)));
      expect(fromEmitted.valid, JSON.stringify(data)).toBe(valid);
      expect(run(live, JSON.parse(JSON.stringify(data)))).toEqual(fromEmitted);
    }
  });
});

describe("live ajv's equality (json-equal.ts)", () => {
  it("is the generated runtime's deepEqual, on JSON values with prototype-named keys", async () => {
    // The helper the generated validators import through the codegen contract.
    const runtime = { deepEqual };
    const key = fc.constantFrom(...KEYS, "valueOf", "a", "b");
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom(null, true, 0, 1, "x", "toString"),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(key, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    // Through JSON text, so `__proto__` is an own key as in parsed data.
    const pair = fc
      .tuple(json, json)
      .map(([a, b]) => [JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))] as const);
    fc.assert(
      fc.property(pair, ([a, b]) => jsonEqual(a, b) === runtime.deepEqual(a, b)),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(json, (a) => jsonEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(a)))));
    expect(jsonEqual(JSON.parse('{"toString":"x"}'), { toString: "x" })).toBe(true);
    expect(jsonEqual(JSON.parse('{"__proto__":1}'), {})).toBe(false);
  });
});

/** `value` as JSON text with `key: valueText` set on the object at `path` (added last, replacing any such key). */
function textWithKey(value: unknown, path: readonly string[], key: string, valueText: string): string {
  if (Array.isArray(value)) {
    return `[${value.map((item, i) => (String(i) === path[0] ? textWithKey(item, path.slice(1), key, valueText) : JSON.stringify(item))).join(",")}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (path.length === 0) {
    const kept = entries.filter(([k]) => k !== key).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    return `{${[...kept, `${JSON.stringify(key)}:${valueText}`].join(",")}}`;
  }
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${k === path[0] ? textWithKey(v, path.slice(1), key, valueText) : JSON.stringify(v)}`).join(",")}}`;
}

/** Paths of every plain object in `value`, the root included. */
function objectPaths(value: unknown, at: string[] = []): string[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectPaths(item, [...at, String(i)]));
  if (value === null || typeof value !== "object") return [];
  return [at, ...Object.entries(value).flatMap(([k, v]) => objectPaths(v, [...at, k]))];
}

describe("every example of the real schema with prototype-named keys added", () => {
  const REQUEST_BODIES = ["RunCreateRequest", "SessionCreateRequest", "SessionMessageRequest", "ToolResultRequest"];
  /** A key no component declares or patterns single out: what a prototype name must behave like. */
  const NEUTRAL = "qzNeutralKey";
  let model: LoadedSchema;
  let emitted: EmittedValidators;
  let live: ReturnType<typeof liveValidators>;
  let liveAll: ReturnType<typeof liveValidators>;
  beforeAll(async () => {
    model = await loadSchemaFile(SCHEMA_PATH);
    emitted = await emitToTempDir(model);
    live = liveValidators(model);
    liveAll = liveValidators(model, { allErrors: true });
  });

  it("emitted and live validators agree, and a prototype name behaves like any undeclared name", async () => {
    let checked = 0;
    const disagreements: string[] = [];
    for (const [name, schema] of Object.entries(model.schemas)) {
      const validate = await emitted.get(name);
      const validateAll = REQUEST_BODIES.includes(name) ? await emitted.getAllErrors(name) : undefined;
      for (const example of (schema.examples as unknown[] | undefined) ?? []) {
        for (const path of objectPaths(example)) {
          for (const key of KEYS) {
            for (const valueText of ['"x"', "1", '{"a":1}']) {
              const text = textWithKey(example, path, key, valueText);
              const label = `${name} /${path.join("/")} ${key}=${valueText}`;
              const fromEmitted = run(validate, JSON.parse(text));
              if (JSON.stringify(run(live(name), JSON.parse(text))) !== JSON.stringify(fromEmitted))
                disagreements.push(`${label}: live ajv differs`);
              const neutral = run(live(name), JSON.parse(textWithKey(example, path, NEUTRAL, valueText)));
              if (JSON.stringify(neutral).replaceAll(NEUTRAL, key) !== JSON.stringify(fromEmitted))
                disagreements.push(`${label}: differs from an undeclared key`);
              if (
                validateAll &&
                JSON.stringify(run(liveAll(name), JSON.parse(text))) !==
                  JSON.stringify(run(validateAll, JSON.parse(text)))
              ) {
                disagreements.push(`${label}: all-errors build differs from live ajv`);
              }
              checked++;
            }
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(checked).toBeGreaterThan(1000);
  });
});
