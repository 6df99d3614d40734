/**
 * The one JSON-pointer module (runtime/json-pointer.ts): what the generator
 * (through codegen/v1 and generator/load/json-pointer.ts), the tool
 * registry's checker and the compiled transcript (generated/transcript.ts)
 * all read and write pointers with.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getAtPointer, parseRefFragment } from "../../generator/load/json-pointer.js";
import {
  escapePointerSegment,
  formatPointer,
  parsePointer,
  unescapePointerSegment,
  valueAtPointer,
} from "../../runtime/codegen/v1.js";

describe("JSON pointers (RFC 6901)", () => {
  it("escapes `~` before `/`, and reads `~1` before `~0` (`~01` is the key `~1`)", () => {
    expect(escapePointerSegment("a/b~c")).toBe("a~1b~0c");
    expect(escapePointerSegment(3)).toBe("3");
    expect(unescapePointerSegment("~01")).toBe("~1");
    expect(formatPointer([])).toBe("");
    expect(formatPointer(["components", "schemas", "a/b", "~"])).toBe("/components/schemas/a~1b/~0");
    expect(parsePointer("/a~1b/~0/")).toEqual(["a/b", "~", ""]);
    expect(() => parsePointer("a")).toThrow('JSON pointer must start with "/": "a"');
  });

  it("format and parse are inverse on any segments", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom("~", "/", "0", "1", "a", "é") })), (segments) => {
        expect(parsePointer(formatPointer(segments))).toEqual(segments);
      }),
    );
  });

  it("reads an object's own keys and an array's indexes only", () => {
    const doc = { a: [{ "b/c": 1 }, null], "": { "~": false } };
    expect(valueAtPointer(doc, ["a", "0", "b/c"])).toBe(1);
    expect(valueAtPointer(doc, ["", "~"])).toBe(false);
    expect(valueAtPointer(doc, [])).toBe(doc);
    expect(valueAtPointer(doc, ["a", "01"])).toBeUndefined();
    expect(valueAtPointer(doc, ["a", "length"])).toBeUndefined();
    expect(valueAtPointer(doc, ["a", "1", "x"])).toBeUndefined();
    expect(valueAtPointer(doc, ["toString"])).toBeUndefined();
    expect(valueAtPointer("text", ["length"])).toBeUndefined();
  });

  it("the generator's pointers are the runtime's", () => {
    expect(getAtPointer).toBe(valueAtPointer);
    expect(parseRefFragment("#/components/schemas/a~1b%20c")).toEqual(["components", "schemas", "a/b c"]);
  });
});
