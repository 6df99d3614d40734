/**
 * The remembering URI resolver the generator's ajv instances use
 * (generator/emit/validators/uri-resolver.ts) answers exactly as fast-uri,
 * ajv's default, the first time and every later time.
 */
import { describe, expect, it } from "vitest";
import fastUri from "ajv/dist/runtime/uri.js";
import { rememberingUriResolver } from "../../generator/emit/validators/uri-resolver.js";

const uri = (fastUri as unknown as { default: typeof rememberingUriResolver }).default;
const DOCUMENT = "https://mantyx.invalid/wire-types/openapi.json";
const IDS = [
  DOCUMENT,
  `${DOCUMENT}#`,
  `${DOCUMENT}#/components/schemas/A`,
  "#/components/schemas/B~1C",
  "other.json#/$defs/x",
  "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
  "",
  "#",
  "../up/x.json",
  "https://h.invalid/a%20b?q=1#f",
];

describe("rememberingUriResolver", () => {
  it("parses, resolves and serializes as fast-uri does, on first and repeated calls", () => {
    for (let round = 0; round < 2; round++) {
      for (const id of IDS) {
        expect(rememberingUriResolver.parse(id)).toEqual(uri.parse(id));
        expect(rememberingUriResolver.serialize(rememberingUriResolver.parse(id))).toBe(uri.serialize(uri.parse(id)));
        for (const base of IDS) expect(rememberingUriResolver.resolve(base, id)).toBe(uri.resolve(base, id));
      }
    }
  });

  it("serializes a component it did not parse (ajv may build one) as fast-uri does", () => {
    const component = { scheme: "https", host: "h.invalid", path: "/x", fragment: "/a" };
    expect(rememberingUriResolver.serialize(component)).toBe(uri.serialize(component));
  });

  it("hands out parsed components that no caller can change for the next", () => {
    const first = rememberingUriResolver.parse(`${DOCUMENT}#/components/schemas/A`);
    expect(() => {
      (first as { fragment?: string }).fragment = "changed";
    }).toThrow(TypeError);
    expect(rememberingUriResolver.parse(`${DOCUMENT}#/components/schemas/A`).fragment).toBe("/components/schemas/A");
  });
});
