/** Small readings of a schema object that several rules need. */
import { stringList } from "./json-values.js";

/** `type` as a list (`"string"` -> `["string"]`), or undefined when the schema does not say. */
export function typeListOf(schema: Readonly<Record<string, unknown>>): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  return stringList(schema.type);
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** How deep `effectiveTypes` looks through nested unions before giving up (a recursive union says nothing useful). */
const MAX_UNION_DEPTH = 8;

/**
 * The JSON types a schema can accept, from `type`, or else from its
 * `const`/`enum` values, or else from the branches of its `oneOf`/`anyOf`
 * (their union): `{ anyOf: [{ enum: ["a"] }, { pattern: … , type: string }] }`
 * accepts strings only, although it has no `type` of its own. Undefined when
 * the schema does not restrict types.
 */
export function effectiveTypes(schema: unknown, deref: (schema: unknown) => unknown, depth = 0): string[] | undefined {
  if (schema === false) return [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || depth > MAX_UNION_DEPTH)
    return undefined;
  const object = schema as Readonly<Record<string, unknown>>;
  const own = typeListOf(object);
  if (own !== undefined) return own;
  if (Object.hasOwn(object, "const")) return [jsonType(object.const)];
  if (Array.isArray(object.enum)) return [...new Set(object.enum.map(jsonType))];
  const branches = Array.isArray(object.anyOf) ? object.anyOf : Array.isArray(object.oneOf) ? object.oneOf : undefined;
  if (branches === undefined) return undefined;
  const types = new Set<string>();
  for (const branch of branches) {
    const branchTypes = effectiveTypes(deref(branch), deref, depth + 1);
    if (branchTypes === undefined) return undefined;
    for (const type of branchTypes) types.add(type);
  }
  return [...types];
}
