/**
 * A deterministic example value for a JSON Schema: what the mock passes as
 * the arguments of a tool call it makes on its own (a tool's `parameters`),
 * so any SDK's first test needs no scenario. Same schema, same value.
 *
 * Covered: `const`, `enum`, `type` (a list: its first non-null type),
 * `default`, `examples` and (OpenAPI 3.0) `example` when they are valid, objects (`required`
 * properties, then the others, `minProperties`), arrays (`minItems`,
 * `items`, `prefixItems`, `uniqueItems` by distinct values), strings
 * (`minLength`, `maxLength`, the common `format`s, a `pattern` only through
 * `examples`/`default`), numbers (`minimum`, `maximum`, the exclusive
 * forms, `multipleOf`), `allOf` (merged), `anyOf`/`oneOf` (the first branch
 * that yields a valid value), `not` is ignored, `$ref` into the same
 * document (`#/$defs/…`, `#/definitions/…`, `#`) and `true`/`false`
 * schemas. A value is checked by `accepts` when given (the caller's
 * validator); what cannot be satisfied falls back to the simplest value of
 * the type, and test/mock/example-value.test.ts measures how often that
 * happens on generated schemas (never, for the covered keywords).
 */
import { unescapePointerSegment } from "../load/json-pointer.js";
type Schema = boolean | Record<string, unknown>;

export type { Schema as ExampleSchema };

export interface ExampleOptions {
  /** A validator of the whole schema; with it, `default`/`examples` and union branches are used only when they pass. */
  readonly accepts?: (schema: Schema, value: unknown) => boolean;
  /** Recursion bound for `$ref` cycles (default 8). */
  readonly maxDepth?: number;
  /**
   * After this many values generated, optional properties are left out and
   * arrays get their `minItems` only, so a large recursive schema (a
   * public API's) gives a value of bounded size. Default: no bound.
   */
  readonly budget?: number;
  /** Resolves a `$ref` the schema's own root cannot (an OpenAPI document's `#/components/schemas/…`); default: against the root. */
  readonly resolveRef?: (ref: string) => Schema | undefined;
}

const FORMATS: Record<string, string> = {
  "date-time": "2026-10-01T12:00:00Z",
  date: "2026-10-01",
  time: "12:00:00Z",
  duration: "PT1M",
  email: "ada@example.com",
  "idn-email": "ada@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  uri: "https://example.com/",
  "uri-reference": "https://example.com/",
  iri: "https://example.com/",
  "iri-reference": "https://example.com/",
  "uri-template": "https://example.com/{id}",
  uuid: "00000000-0000-4000-8000-000000000000",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  regex: "^a$",
};

export function exampleValue(schema: unknown, options: ExampleOptions = {}): unknown {
  const root =
    (typeof schema === "object" && schema !== null) || typeof schema === "boolean" ? (schema as Schema) : true;
  return new Generator(root, options).value(root, 0);
}

class Generator {
  readonly #maxDepth: number;
  /** Values generated so far (for `budget`). */
  #made = 0;

  constructor(
    readonly root: Schema,
    readonly options: ExampleOptions,
  ) {
    this.#maxDepth = options.maxDepth ?? 8;
  }

  #ok(schema: Schema, value: unknown): boolean {
    return this.options.accepts === undefined || this.options.accepts(this.#standalone(schema), value);
  }

  /** A sub-schema with the root's definitions beside it, so its `$ref`s resolve when it is validated alone. */
  #standalone(schema: Schema): Schema {
    if (this.options.resolveRef !== undefined) return schema;
    if (schema === this.root || typeof schema === "boolean" || typeof this.root === "boolean") return schema;
    const defs: Record<string, unknown> = {};
    if (this.root["$defs"] !== undefined) defs["$defs"] = this.root["$defs"];
    if (this.root["definitions"] !== undefined) defs["definitions"] = this.root["definitions"];
    return Object.keys(defs).length === 0 ? schema : { ...defs, allOf: [schema] };
  }

  #resolve(ref: string): Schema | undefined {
    if (this.options.resolveRef !== undefined) return this.options.resolveRef(ref);
    if (!ref.startsWith("#")) return undefined;
    let cur: unknown = this.root;
    for (const raw of ref.slice(1).split("/").slice(1)) {
      const key = unescapePointerSegment(decodeURIComponent(raw));
      if (typeof cur !== "object" || cur === null) return undefined;
      cur = (cur as Record<string, unknown>)[key];
    }
    return typeof cur === "object" || typeof cur === "boolean" ? (cur as Schema) : undefined;
  }

  get #spent(): boolean {
    return this.options.budget !== undefined && this.#made > this.options.budget;
  }

  value(schema: Schema, depth: number): unknown {
    this.#made++;
    if (typeof schema === "boolean") return schema ? {} : null;
    if (depth > this.#maxDepth) return null;
    if (typeof schema["$ref"] === "string") {
      const target = this.#resolve(schema["$ref"]);
      const { $ref: _ref, ...rest } = schema;
      if (target !== undefined)
        return this.value(
          Object.keys(rest).length === 0 || typeof target === "boolean" ? target : merge(rest, target),
          depth + 1,
        );
    }
    if ("const" in schema) return schema["const"];
    if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) {
      return schema["enum"].find((v) => this.#ok(schema, v)) ?? schema["enum"][0];
    }
    // (`example`: OpenAPI 3.0's keyword, and 3.1's deprecated one.)
    for (const candidate of [
      ...(Array.isArray(schema["examples"]) ? schema["examples"] : []),
      ...("example" in schema ? [schema["example"]] : []),
      ...("default" in schema ? [schema["default"]] : []),
    ]) {
      if (this.#ok(schema, candidate)) return candidate;
    }
    if (Array.isArray(schema["allOf"])) {
      const merged = (schema["allOf"] as Schema[]).reduce<Record<string, unknown>>(
        (acc, s) => (typeof s === "object" ? merge(acc, this.#deref(s)) : acc),
        omit(schema, "allOf"),
      );
      return this.value(merged, depth + 1);
    }
    for (const key of ["oneOf", "anyOf"] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const base = omit(schema, key);
      let first: unknown;
      for (const [i, branch] of (branches as Schema[]).entries()) {
        const candidate = this.value(typeof branch === "object" ? merge(base, this.#deref(branch)) : branch, depth + 1);
        if (i === 0) first = candidate;
        if (this.#ok(schema, candidate)) return candidate;
      }
      return first;
    }
    switch (typeOf(schema)) {
      case "null":
        return null;
      case "boolean":
        return true;
      case "integer":
        return this.#number(schema, true);
      case "number":
        return this.#number(schema, false);
      case "string":
        return this.#string(schema);
      case "array":
        return this.#array(schema, depth);
      default:
        return this.#object(schema, depth);
    }
  }

  #deref(schema: Record<string, unknown>): Record<string, unknown> {
    if (typeof schema["$ref"] !== "string") return schema;
    const target = this.#resolve(schema["$ref"]);
    return typeof target === "object" ? merge(omit(schema, "$ref"), target) : schema;
  }

  #number(schema: Record<string, unknown>, integer: boolean): number {
    const num = (k: string): number | undefined => (typeof schema[k] === "number" ? (schema[k] as number) : undefined);
    const step = num("multipleOf");
    let low = num("minimum") ?? -Infinity;
    let high = num("maximum") ?? Infinity;
    const exLow = num("exclusiveMinimum");
    const exHigh = num("exclusiveMaximum");
    const unit = step ?? (integer ? 1 : 0.5);
    if (exLow !== undefined && exLow >= low)
      low =
        exLow +
        (step === undefined && !integer ? Math.min(0.5, (Math.min(high, exHigh ?? Infinity) - exLow) / 2) : unit);
    if (exHigh !== undefined && exHigh <= high)
      high = exHigh - (step === undefined && !integer ? Math.min(0.5, (exHigh - low) / 2) : unit);
    // The value nearest 1 inside the bounds, then aligned on multipleOf / integers.
    let v = Math.min(Math.max(1, low), high);
    if (integer) v = v >= 0 ? Math.ceil(v) : Math.ceil(v);
    if (step !== undefined && step > 0) {
      v = Math.ceil(v / step) * step;
      if (v > high) v = Math.floor(high / step) * step;
      if (integer && !Number.isInteger(v)) v = Math.ceil(v / lcm(step)) * lcm(step);
    }
    if (integer && v > high) v = Math.floor(high);
    return Object.is(v, -0) ? 0 : v;
  }

  #string(schema: Record<string, unknown>): string {
    const min = typeof schema["minLength"] === "number" ? (schema["minLength"] as number) : 0;
    const max = typeof schema["maxLength"] === "number" ? (schema["maxLength"] as number) : Infinity;
    let text =
      typeof schema["format"] === "string" && FORMATS[schema["format"]] !== undefined
        ? FORMATS[schema["format"]]!
        : "example";
    if (text.length > max) text = text.slice(0, max);
    if ([...text].length < min) text = text.padEnd(min, "x");
    return text;
  }

  #array(schema: Record<string, unknown>, depth: number): unknown[] {
    const prefix = Array.isArray(schema["prefixItems"]) ? (schema["prefixItems"] as Schema[]) : [];
    const items = (schema["items"] ?? true) as Schema;
    const min = typeof schema["minItems"] === "number" ? (schema["minItems"] as number) : 0;
    const max = typeof schema["maxItems"] === "number" ? (schema["maxItems"] as number) : Infinity;
    const count = Math.min(
      Math.max(min, prefix.length, min === 0 && max > 0 && !this.#spent ? 1 : 0),
      max,
      prefix.length + (items === false ? 0 : Infinity),
    );
    const out: unknown[] = [];
    for (let i = 0; i < count; i++) {
      const item = i < prefix.length ? this.value(prefix[i]!, depth + 1) : this.value(items, depth + 1);
      out.push(schema["uniqueItems"] === true && i >= prefix.length ? distinct(item, i) : item);
    }
    return out;
  }

  #object(schema: Record<string, unknown>, depth: number): Record<string, unknown> {
    const properties = (
      typeof schema["properties"] === "object" && schema["properties"] !== null ? schema["properties"] : {}
    ) as Record<string, Schema>;
    const required = Array.isArray(schema["required"])
      ? (schema["required"] as unknown[]).filter((k): k is string => typeof k === "string")
      : [];
    const minProps = typeof schema["minProperties"] === "number" ? (schema["minProperties"] as number) : 0;
    const maxProps = typeof schema["maxProperties"] === "number" ? (schema["maxProperties"] as number) : Infinity;
    const out: Record<string, unknown> = {};
    for (const key of required) out[key] = this.value(properties[key] ?? true, depth + 1);
    // The optional declared properties too (a realistic call), while the bound allows.
    for (const key of Object.keys(properties)) {
      if (this.#spent) break;
      if (key in out || Object.keys(out).length >= maxProps) continue;
      if (properties[key] === false) continue;
      out[key] = this.value(properties[key]!, depth + 1);
    }
    const extra = schema["additionalProperties"];
    for (let i = 0; Object.keys(out).length < minProps && extra !== false && i < minProps; i++) {
      const key = `property${i}`;
      if (!(key in out)) out[key] = this.value(typeof extra === "object" ? (extra as Schema) : true, depth + 1);
    }
    return out;
  }
}

function typeOf(schema: Record<string, unknown>): string {
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t))
    return (t.find((x) => x !== "null") as string | undefined) ?? (t[0] as string | undefined) ?? "object";
  if ("properties" in schema || "required" in schema || "additionalProperties" in schema) return "object";
  if ("items" in schema || "prefixItems" in schema || "minItems" in schema) return "array";
  if ("minLength" in schema || "maxLength" in schema || "pattern" in schema || "format" in schema) return "string";
  if ("minimum" in schema || "maximum" in schema || "multipleOf" in schema) return "number";
  return "object";
}

function omit(schema: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

/** Two schemas as one (`allOf`): properties and required lists joined, bounds the tighter of each. */
function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a, ...b };
  if (typeof a["properties"] === "object" && typeof b["properties"] === "object")
    out["properties"] = { ...(a["properties"] as object), ...(b["properties"] as object) };
  if (Array.isArray(a["required"]) && Array.isArray(b["required"]))
    out["required"] = [...new Set([...a["required"], ...b["required"]])];
  for (const k of ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]) {
    if (typeof a[k] === "number" && typeof b[k] === "number") out[k] = Math.max(a[k] as number, b[k] as number);
  }
  for (const k of ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]) {
    if (typeof a[k] === "number" && typeof b[k] === "number") out[k] = Math.min(a[k] as number, b[k] as number);
  }
  if (a["type"] === undefined && b["type"] === undefined) delete out["type"];
  return out;
}

/** `item` made different from the items before it (index `i`), for `uniqueItems`. */
function distinct(item: unknown, i: number): unknown {
  if (typeof item === "number") return item + i;
  if (typeof item === "string") return i === 0 ? item : `${item}${i}`;
  if (typeof item === "object" && item !== null && !Array.isArray(item)) return i === 0 ? item : { ...item, _: i };
  return item;
}

/** The smallest multiple of `step` that is an integer (for integer schemas with a fractional multipleOf). */
function lcm(step: number): number {
  for (let k = 1; k <= 1000; k++) if (Number.isInteger(step * k)) return step * k;
  return step;
}
