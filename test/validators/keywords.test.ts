/**
 * Vendor keywords at their boundaries (fixtures/keyword-cases.json), each case
 * run through live ajv and through the emitted standalone module: same
 * verdict, same errors, and the expected keyword and params.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { emitToTempDir, liveValidators, run, type EmittedValidators } from "./support/emitted.js";
import { FIXTURES, loadSchemaFile } from "./support/load-schema.js";

interface KeywordCase {
  description: string;
  schema: string;
  data: unknown;
  valid: boolean;
  keyword?: string;
  params?: Record<string, unknown>;
}

const model = await loadSchemaFile(new URL("keywords.yaml", FIXTURES));
const cases = JSON.parse(readFileSync(new URL("keyword-cases.json", FIXTURES), "utf8")) as KeywordCase[];
const live = liveValidators(model);
let emitted: EmittedValidators;

beforeAll(async () => {
  emitted = await emitToTempDir(model);
});

describe("vendor keywords at their boundaries", () => {
  it.each(cases.map((c) => [c.description, c] as const))("%s", async (_description, c) => {
    const fromLive = run(live(c.schema), c.data);
    const fromEmitted = run(await emitted.get(c.schema), c.data);

    expect(fromLive.valid).toBe(c.valid);
    expect(fromEmitted).toEqual(fromLive);
    if (c.valid) {
      expect(fromEmitted.errors).toBeNull();
    } else {
      expect(fromEmitted.errors).toHaveLength(1);
      const [issue] = fromEmitted.errors ?? [];
      if (c.keyword) expect(issue?.keyword).toBe(c.keyword);
      if (c.params) expect(issue?.params).toMatchObject(c.params);
    }
  });

  it("case descriptions are unique", () => {
    expect(new Set(cases.map((c) => c.description)).size).toBe(cases.length);
  });

  it("byte-limit messages state the limit and the actual size", async () => {
    const v = await emitted.get("JsonMax10");
    expect(v({ a: "éé" })).toBe(false);
    expect(v.errors?.[0]?.message).toBe("must be at most 10 bytes as JSON (is 12)");
    const u = await emitted.get("Utf8Max4");
    expect(u("ééa")).toBe(false);
    expect(u.errors?.[0]?.message).toBe("must be at most 4 bytes as UTF-8 (is 5)");
  });

  it("the comparison keywords' messages name both properties (and the item for attachments)", async () => {
    const b = await emitted.get("Breakdown");
    expect(b({ part: 6, total: 5 })).toBe(false);
    expect(b.errors?.[0]?.message).toBe("must have part at most total (is 6, more than 5)");
    const d = await emitted.get("Duplicate");
    expect(d({ copy: "b", original: "a" })).toBe(false);
    expect(d.errors?.[0]?.message).toBe("must have copy equal to original");
    const l = await emitted.get("LastUserOnly");
    expect(l([{ role: "user", attachments: [] }, { role: "user" }])).toBe(false);
    expect(l.errors?.[0]?.message).toBe("must carry attachments only on the last item with role user (item 0 has it)");
  });

  it("role messages name the expected and the actual role", async () => {
    const v = await emitted.get("Conversation");
    expect(v([{ role: "user" }, { role: "assistant" }])).toBe(false);
    expect(v.errors?.[0]?.message).toBe('must have role "user" on the last non-system item (is "assistant")');
    expect(v([{ role: "system" }])).toBe(false);
    expect(v.errors?.[0]?.message).toBe('must have role "user" on the last non-system item (is none)');
  });
});

describe("x-max-utf8-bytes agrees with TextEncoder", () => {
  // Arbitrary UTF-16 strings, lone surrogates included: the generated loop
  // must count what TextEncoder (U+FFFD for lone surrogates) produces.
  const encoder = new TextEncoder();
  const strings = fc.oneof(fc.string({ unit: "binary", maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 6 }));

  it("valid exactly when the encoded length is at most 4 (live and emitted)", async () => {
    const emittedV = await emitted.get("Utf8Max4");
    const liveV = live("Utf8Max4");
    fc.assert(
      fc.property(strings, (s) => {
        const expected = encoder.encode(s).length <= 4;
        return liveV(s) === expected && emittedV(s) === expected;
      }),
      { numRuns: 2000 },
    );
  });

  it("reports the encoded length as actual", async () => {
    const v = await emitted.get("Utf8Max0");
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 1, maxLength: 20 }), (s) => {
        v(s);
        return v.errors?.[0]?.params["actual"] === encoder.encode(s).length;
      }),
      { numRuns: 1000 },
    );
  });
});
