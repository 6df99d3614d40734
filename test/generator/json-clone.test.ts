/**
 * `clone` (generator/emit/fixtures/json.ts) copies the mutations' JSON values
 * as structuredClone did: equal, unshared, with key order, -0 and an own
 * `__proto__` key kept.
 */
import { describe, expect, it } from "vitest";
import { clone, type Json } from "../../generator/emit/fixtures/json.js";

describe("clone", () => {
  it.each<[string, Json]>([
    ["scalars", [null, true, false, 0, 1.5, "x"]],
    ["nested objects and arrays", { a: [1, { b: [[], {}] }], c: { d: null } }],
    ["integer-like and other keys in order", { b: 1, "2": 2, a: 3, "1": 4 }],
  ])("%s: what structuredClone gives", (_name, value) => {
    const copy = clone(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(Object.keys(copy as object)).toEqual(Object.keys(structuredClone(value) as object));
  });

  it("shares nothing with the original", () => {
    const value = { a: [{ b: 1 }] };
    const copy = clone(value);
    (copy.a[0] as { b: number }).b = 2;
    expect(value.a[0]!.b).toBe(1);
  });

  it("keeps -0 and an own __proto__ key (not a prototype)", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "z": -0}') as Json;
    const copy = clone(value) as Record<string, unknown>;
    expect(Object.is(copy["z"], -0)).toBe(true);
    expect(Object.keys(copy)).toEqual(["__proto__", "z"]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe(JSON.stringify(structuredClone(value)));
  });
});
