/**
 * A small JSON Schema interpreter for tool arguments (`parameters` of a
 * `local` tool, `inputSchema` of an MCP tool): the subset such schemas use in
 * practice, checked by walking the schema — no code generation, no `eval` /
 * `new Function`, so it runs under a strict Content-Security-Policy.
 *
 * Asserted: `type` (string or array; "integer" included), `properties`,
 * `required`, `patternProperties`, `additionalProperties` (boolean or
 * schema), `enum`, `const`,
 * `items` (schema), `prefixItems`, `minItems`/`maxItems`, `uniqueItems`,
 * `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` (numbers),
 * `multipleOf`, `minLength`/`maxLength` (code points), `pattern` (Unicode
 * RegExp), `minProperties`/`maxProperties`, `anyOf`/`oneOf`/`allOf`/`not`,
 * and `$ref` to `#/…` inside the same schema (`$defs`, `definitions`; any
 * other `$ref`, e.g. to an `$anchor`, is not followed).
 * Ignored: `format` (an annotation, as in the project's schema), and every
 * other keyword (so a schema using them is checked less, never rejected).
 * For full JSON Schema, pass your own `validateArgs` to the tool registry.
 */
import { escapePointerSegment, unescapePointerSegment } from "../../runtime/json-pointer.js";

/** One problem, in the shape of the generated validators' issues. */
export interface ArgIssue {
  instancePath: string;
  keyword: string;
  message: string;
}

type Schema = boolean | Record<string, unknown>;

const MAX_DEPTH = 64;
const patterns = new Map<string, RegExp | null>();

function regex(source: string): RegExp | null {
  let r = patterns.get(source);
  if (r === undefined) {
    try {
      r = new RegExp(source, "u");
    } catch {
      r = null; // an invalid pattern cannot be checked; it is ignored
    }
    patterns.set(source, r);
  }
  return r;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

function hasType(v: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    default:
      return typeOf(v) === type;
  }
}

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    n++;
  }
  return n;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => jsonEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const ob = b as Record<string, unknown>;
  return (
    ka.length === Object.keys(ob).length &&
    ka.every((k) => Object.hasOwn(ob, k) && jsonEqual((a as Record<string, unknown>)[k], ob[k]))
  );
}

function pointer(path: string, key: string | number): string {
  return `${path}/${escapePointerSegment(key)}`;
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined; // not a JSON pointer (an $anchor, another document)
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = unescapePointerSegment(decodeURIComponent(raw));
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "boolean" || (typeof node === "object" && node !== null) ? (node as Schema) : undefined;
}

class Walker {
  readonly issues: ArgIssue[] = [];
  constructor(private readonly root: Schema) {}

  check(schema: Schema, v: unknown, path: string, depth: number): void {
    if (schema === true) return;
    if (schema === false) {
      this.add(path, "false", "is not allowed");
      return;
    }
    if (depth > MAX_DEPTH) {
      this.add(path, "$ref", "schema nests too deeply (a $ref cycle?)");
      return;
    }
    const s = schema;
    if (typeof s["$ref"] === "string") {
      const target = resolveRef(this.root, s["$ref"]);
      if (target !== undefined) this.check(target, v, path, depth + 1);
    }
    const type = s["type"];
    if (typeof type === "string" || Array.isArray(type)) {
      const types = (Array.isArray(type) ? type : [type]) as string[];
      if (!types.some((t) => hasType(v, t))) {
        this.add(path, "type", `must be ${types.join(" or ")} (is ${typeOf(v)})`);
        return; // the other keywords would only restate it
      }
    }
    if (Array.isArray(s["enum"]) && !s["enum"].some((e) => jsonEqual(e, v))) {
      this.add(path, "enum", `must be one of ${JSON.stringify(s["enum"])}`);
    }
    if ("const" in s && !jsonEqual(s["const"], v)) this.add(path, "const", `must be ${JSON.stringify(s["const"])}`);
    if (typeof v === "number") this.number(s, v, path);
    else if (typeof v === "string") this.string(s, v, path);
    else if (Array.isArray(v)) this.array(s, v, path, depth);
    else if (typeof v === "object" && v !== null) this.object(s, v as Record<string, unknown>, path, depth);
    this.combinators(s, v, path, depth);
  }

  private number(s: Record<string, unknown>, v: number, path: string): void {
    const n = (k: string): number | undefined => (typeof s[k] === "number" ? (s[k] as number) : undefined);
    const min = n("minimum");
    const max = n("maximum");
    const xmin = n("exclusiveMinimum");
    const xmax = n("exclusiveMaximum");
    const mult = n("multipleOf");
    if (min !== undefined && v < min) this.add(path, "minimum", `must be >= ${min}`);
    if (max !== undefined && v > max) this.add(path, "maximum", `must be <= ${max}`);
    if (xmin !== undefined && v <= xmin) this.add(path, "exclusiveMinimum", `must be > ${xmin}`);
    if (xmax !== undefined && v >= xmax) this.add(path, "exclusiveMaximum", `must be < ${xmax}`);
    if (mult !== undefined && mult > 0 && !Number.isInteger(v / mult))
      this.add(path, "multipleOf", `must be a multiple of ${mult}`);
  }

  private string(s: Record<string, unknown>, v: string, path: string): void {
    const minLength = s["minLength"];
    const maxLength = s["maxLength"];
    if (typeof minLength === "number" || typeof maxLength === "number") {
      const len = codePoints(v);
      if (typeof minLength === "number" && len < minLength)
        this.add(path, "minLength", `must have at least ${minLength} characters`);
      if (typeof maxLength === "number" && len > maxLength)
        this.add(path, "maxLength", `must have at most ${maxLength} characters`);
    }
    if (typeof s["pattern"] === "string") {
      const r = regex(s["pattern"]);
      if (r !== null && !r.test(v)) this.add(path, "pattern", `must match pattern ${JSON.stringify(s["pattern"])}`);
    }
  }

  private array(s: Record<string, unknown>, v: unknown[], path: string, depth: number): void {
    if (typeof s["minItems"] === "number" && v.length < s["minItems"])
      this.add(path, "minItems", `must have at least ${s["minItems"]} items`);
    if (typeof s["maxItems"] === "number" && v.length > s["maxItems"])
      this.add(path, "maxItems", `must have at most ${s["maxItems"]} items`);
    let from = 0;
    if (Array.isArray(s["prefixItems"])) {
      const prefix = s["prefixItems"] as Schema[];
      for (let i = 0; i < prefix.length && i < v.length; i++) this.check(prefix[i]!, v[i], pointer(path, i), depth + 1);
      from = prefix.length;
    }
    const items = s["items"];
    if (typeof items === "boolean" || (typeof items === "object" && items !== null && !Array.isArray(items))) {
      for (let i = from; i < v.length; i++) this.check(items as Schema, v[i], pointer(path, i), depth + 1);
    }
    if (s["uniqueItems"] === true) {
      for (let i = 1; i < v.length; i++) {
        if (v.slice(0, i).some((x) => jsonEqual(x, v[i]))) {
          this.add(path, "uniqueItems", `must not have duplicate items (item ${i})`);
          break;
        }
      }
    }
  }

  private object(s: Record<string, unknown>, v: Record<string, unknown>, path: string, depth: number): void {
    const keys = Object.keys(v);
    if (typeof s["minProperties"] === "number" && keys.length < s["minProperties"])
      this.add(path, "minProperties", `must have at least ${s["minProperties"]} properties`);
    if (typeof s["maxProperties"] === "number" && keys.length > s["maxProperties"])
      this.add(path, "maxProperties", `must have at most ${s["maxProperties"]} properties`);
    if (Array.isArray(s["required"])) {
      for (const r of s["required"]) {
        if (typeof r === "string" && !Object.hasOwn(v, r))
          this.add(path, "required", `must have property ${JSON.stringify(r)}`);
      }
    }
    const props = (typeof s["properties"] === "object" && s["properties"] !== null ? s["properties"] : {}) as Record<
      string,
      Schema
    >;
    const patternProps =
      typeof s["patternProperties"] === "object" && s["patternProperties"] !== null
        ? Object.entries(s["patternProperties"] as Record<string, Schema>)
        : [];
    const additional = s["additionalProperties"];
    for (const key of keys) {
      let known = Object.hasOwn(props, key);
      if (known) this.check(props[key]!, v[key], pointer(path, key), depth + 1);
      for (const [source, sub] of patternProps) {
        const r = regex(source);
        // A pattern that cannot be compiled may match: the key is not called additional.
        if (r === null) known = true;
        else if (r.test(key)) {
          known = true;
          this.check(sub, v[key], pointer(path, key), depth + 1);
        }
      }
      if (known) continue;
      if (additional === false) {
        this.add(pointer(path, key), "additionalProperties", "is not an allowed property");
      } else if (typeof additional === "object" && additional !== null) {
        this.check(additional as Schema, v[key], pointer(path, key), depth + 1);
      }
    }
  }

  private combinators(s: Record<string, unknown>, v: unknown, path: string, depth: number): void {
    if (Array.isArray(s["allOf"])) for (const sub of s["allOf"] as Schema[]) this.check(sub, v, path, depth + 1);
    const passes = (sub: Schema): boolean => {
      const w = new Walker(this.root);
      w.check(sub, v, path, depth + 1);
      return w.issues.length === 0;
    };
    if (Array.isArray(s["anyOf"]) && !(s["anyOf"] as Schema[]).some(passes))
      this.add(path, "anyOf", "must match a schema in anyOf");
    if (Array.isArray(s["oneOf"])) {
      const n = (s["oneOf"] as Schema[]).filter(passes).length;
      if (n !== 1)
        this.add(
          path,
          "oneOf",
          n === 0 ? "must match a schema in oneOf" : `must match exactly one schema in oneOf (matches ${n})`,
        );
    }
    if ((typeof s["not"] === "object" && s["not"] !== null) || typeof s["not"] === "boolean") {
      if (passes(s["not"] as Schema)) this.add(path, "not", "must not match the schema in not");
    }
  }

  private add(instancePath: string, keyword: string, message: string): void {
    this.issues.push({ instancePath, keyword, message });
  }
}

/** Every problem of `value` against `schema` (empty when valid). A missing schema accepts anything. */
export function checkJsonSchema(schema: unknown, value: unknown): ArgIssue[] {
  if (schema === undefined || schema === null) return [];
  if (typeof schema !== "boolean" && typeof schema !== "object") return [];
  const root = schema as Schema;
  const w = new Walker(root);
  w.check(root, value, "", 0);
  return w.issues;
}
