/**
 * A `$ref` chain that comes back to where it started without looking into
 * the value (`A: {$ref: B}`, `B: {$ref: A}`; or through `allOf`, `anyOf`,
 * `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`, which apply to the
 * same value) means "to check the value, check the value": validators
 * recurse until the stack overflows and the type is `type A = B; type B = A`.
 * Such a cycle is an error here, naming each hop. Recursion through
 * `properties`, `items` and the other keywords that descend into a part of
 * the value is ordinary JSON Schema and stays allowed.
 *
 * Runs on the bundled document after checkRefs (every `$ref` resolves), so
 * a cycle between files, hoisted into components, is found here too.
 */
import { SchemaLoadError } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { formatRefFragment, getAtPointer, isPlainObject, parseRefFragment, type Pointer } from "./json-pointer.js";
import { findRefs } from "./refs.js";

/** Keywords whose subschemas apply to the same value as the schema that holds them. */
const SAME_VALUE_LIST = ["allOf", "anyOf", "oneOf"] as const;
const SAME_VALUE_ONE = ["not", "if", "then", "else"] as const;

interface Step {
  readonly to: Pointer;
  /** Set when the step follows a `$ref`: the pointer of the object holding it. */
  readonly refAt?: Pointer;
}

export function checkRefCycles(bundled: BundledDocument): void {
  const data = bundled.data;
  const done = new Set<string>();
  const onPath = new Map<string, number>(); // pointer -> index in `path`
  const path: { at: Pointer; via?: Step }[] = [];

  const visit = (at: Pointer, via?: Step): void => {
    const key = formatRefFragment(at);
    const start = onPath.get(key);
    if (start !== undefined) throw cycleError(bundled, [...path.slice(start + 1).map((entry) => entry.via!), via!]);
    if (done.has(key)) return;
    onPath.set(key, path.length);
    path.push({ at, ...(via && { via }) });
    for (const step of sameValueSteps(data, at)) visit(step.to, step);
    path.pop();
    onPath.delete(key);
    done.add(key);
  };
  // From every component, and from every `$ref` (one inside a property,
  // `{$ref: "#/components/schemas/A/properties/k"}` at A/properties/k, is
  // not reached from A by same-value steps).
  const components = getAtPointer(data, ["components", "schemas"]);
  if (isPlainObject(components)) for (const name of Object.keys(components)) visit(["components", "schemas", name]);
  for (const site of bundled.refSites ?? findRefs(data)) visit(site.path);
}

function sameValueSteps(data: unknown, at: Pointer): Step[] {
  const schema = getAtPointer(data, at);
  if (!isPlainObject(schema)) return [];
  const steps: Step[] = [];
  const target = typeof schema.$ref === "string" ? parseRefFragment(schema.$ref) : undefined;
  if (target) steps.push({ to: target, refAt: at });
  for (const keyword of SAME_VALUE_LIST) {
    const list = schema[keyword];
    if (Array.isArray(list)) {
      list.forEach((_, i) => {
        steps.push({ to: [...at, keyword, String(i)] });
      });
    }
  }
  for (const keyword of SAME_VALUE_ONE) if (Object.hasOwn(schema, keyword)) steps.push({ to: [...at, keyword] });
  if (isPlainObject(schema.dependentSchemas))
    for (const name of Object.keys(schema.dependentSchemas)) steps.push({ to: [...at, "dependentSchemas", name] });
  return steps;
}

function cycleError(bundled: BundledDocument, steps: readonly Step[]): SchemaLoadError {
  const refs = steps.filter((step) => step.refAt !== undefined);
  const hops = refs.map((step) => `${formatRefFragment(step.refAt!)} -> ${formatRefFragment(step.to)}`);
  const first = refs[0]!;
  return new SchemaLoadError(
    "ref-cycle",
    [
      {
        ...bundled.where([...first.refAt!, "$ref"]),
        message: `$ref cycle that never looks into the value: ${hops.join(", ")}.`,
      },
    ],
    "A $ref chain must end in a schema. Recursion must go through a part of the value (properties, items, additionalProperties, ...), not straight back to the same value: point one of these $refs at the schema it means.",
  );
}
