/**
 * jsonUtf8Bytes (generator/emit/fixtures/json-size.ts) is the size the
 * fixtures manifest lists for each case too large to ship: it must be
 * exactly the UTF-8 size of JSON.stringify, escapes and surrogates included,
 * also where the hand-written cases' expansion tells it the size.
 */
import { describe, expect, it } from "vitest";
import type { Json } from "../../generator/emit/fixtures/json.js";
import { jsonUtf8Bytes } from "../../generator/emit/fixtures/json-size.js";
import { expandCaseData } from "../../generator/cases/expand.js";

const expected = (v: Json): number => Buffer.byteLength(JSON.stringify(v), "utf8");

/** A small deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const ALPHABET = [
  '"',
  "\\",
  "\b",
  "\f",
  "\n",
  "\r",
  "\t",
  "\u0000",
  "\u001f",
  "\u007f",
  "a",
  " ",
  "é",
  "\u07ff",
  "\u0800",
  "€",
  "\uffff",
  "\ud83d\ude00",
  "\ud800",
  "\udfff",
  "/",
  "<",
];

function randomValue(next: () => number, depth: number): Json {
  const pick = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (pick === 0) return null;
  if (pick === 1) return next() < 0.5;
  if (pick === 2) return [0, -0, 1.5e-7, 1e21, -123456.789, Number.MAX_SAFE_INTEGER, 2 ** 70][Math.floor(next() * 7)]!;
  if (pick === 3)
    return Array.from({ length: Math.floor(next() * 12) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(
      "",
    );
  if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 4) }, (_, i) => [
      `${ALPHABET[Math.floor(next() * ALPHABET.length)]}${i}`,
      randomValue(next, depth + 1),
    ]),
  );
}

describe("jsonUtf8Bytes", () => {
  it.each([
    ["null", null],
    ["booleans", [true, false]],
    ["numbers", [0, -0, 1.5, 1e21, 1e-7, -42]],
    ["empty containers", [{}, [], ""]],
    ["escaped characters", '"\\\b\f\n\r\t\u0000\u001f\u007f'],
    ["multi-byte characters", "é€\u0800\u07ff\uffff"],
    ["a surrogate pair and lone surrogates", "\ud83d\ude00 \ud800 \udfff \udfff\ud800"],
    ["a key that needs escaping", { 'a"b\n': 1, ü: [null] }],
    ["a large plain ASCII string", "QUJD".repeat(100_000)],
  ] as const)("%s", (_name, value) => {
    expect(jsonUtf8Bytes(value as Json)).toBe(expected(value as Json));
  });

  it("agrees with Buffer.byteLength(JSON.stringify(v)) on 2,000 random values", () => {
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(next, 0);
      expect(jsonUtf8Bytes(v), JSON.stringify(v)).toBe(expected(v));
    }
  });

  it("leaves out object members whose value is undefined, as JSON.stringify does", () => {
    const v = { a: 1, b: undefined, c: 2 } as unknown as Json;
    expect(jsonUtf8Bytes(v)).toBe(expected(v));
  });
});

describe("sizes told by the hand-written cases' expansion (generator/cases/expand.ts)", () => {
  it.each([
    [
      "a long ASCII string in an object",
      { toolUseId: "tu_1", result: { $repeatString: { value: "a", count: 200_000 } } },
    ],
    [
      "strings with escapes and multi-byte characters",
      [{ a: { $repeatString: { value: 'é"\\\n€', count: 5000 } } }, "x", 1, null, true],
    ],
    [
      "an empty unit and a zero count",
      { a: { $repeatString: { value: "", count: 9 } }, b: { $repeatString: { value: "ab", count: 0 } } },
    ],
    [
      "a lone surrogate unit, which repetition pairs up",
      { a: { $repeatString: { value: "\ud83d\ude00\ud800", count: 1000 } } },
    ],
    [
      "repeated items and entries around a repeated string",
      {
        list: { $repeatItems: { value: { s: { $repeatString: { value: "QUJD", count: 3000 } } }, count: 4 } },
        map: { $repeatEntries: { key: "k{i}", value: [{ $repeatString: { value: "z", count: 70_000 } }], count: 3 } },
      },
    ],
    [
      "a repeated key (the last value is written)",
      { $repeatEntries: { key: "same", value: { $repeatString: { value: "q", count: 70_000 } }, count: 3 } },
    ],
    [
      "a __proto__ key beside a repeated string (JSON.stringify leaves it out)",
      JSON.parse('{"__proto__": {"x": 1}, "s": {"$repeatString": {"value": "y", "count": 70000}}}'),
    ],
  ] as const)("%s: the told size is JSON.stringify's", (_name, data) => {
    const expanded = expandCaseData(data as Json);
    expect(jsonUtf8Bytes(expanded as Json)).toBe(expected(expanded as Json));
  });

  it("is what jsonUtf8Bytes answers, without walking the value", () => {
    const expanded = expandCaseData({ role: "user", content: { $repeatString: { value: "a", count: 200_000 } } }) as {
      role: string;
      content: string;
    };
    const told = expected(expanded);
    // The expansion's values are never changed; changing one shows that the size comes from what was told.
    expanded.content = "short";
    expect(jsonUtf8Bytes(expanded)).toBe(told);
    expect(jsonUtf8Bytes({ ...expanded })).toBe(expected({ ...expanded }));
  });
});
