/**
 * One OpenAPI 3.0 Schema Object given its OpenAPI 3.1 (JSON Schema 2020-12)
 * meaning, in place. The choices (docs/schema-decisions.md, "OpenAPI 3.0"):
 *
 * - `$ref` with siblings: OpenAPI 3.0 says the siblings are ignored. The
 *   asserting ones (`type`, `properties`, `enum`, ...) are dropped, with a
 *   warning; annotations (`description`, `readOnly`, `deprecated`,
 *   `default`, `example`, `x-…`) stay, as 3.1 keeps them, so doc comments
 *   and read-only properties survive. `nullable` beside a `$ref` is read
 *   (below): it is what authors write for "this reference, or null", and
 *   refusing that `null` on the wire would be strict where we read.
 * - `nullable: true` (and `x-nullable: true`, Swagger 2.0's spelling, which
 *   converted documents keep): `null` is a value too. With a `type` and no
 *   `$ref`/`allOf`/`anyOf`/`oneOf`, `type: T` becomes `type: [T, "null"]`,
 *   and an `enum` gains `null` (else 2020-12 would still refuse it). With a
 *   `$ref` or a composition, the assertions move into `anyOf: [<them>,
 *   { type: "null" }]` (2020-12 has no other way to admit `null` past an
 *   `allOf` branch that refuses it); `allOf: [X]` alone becomes
 *   `anyOf: [X, { type: "null" }]`. Without either, a schema already admits
 *   `null` (`properties` or `minLength` assert nothing on it), but an
 *   `enum` gains it. `nullable: false` means nothing; both are removed.
 * - boolean `exclusiveMinimum`/`exclusiveMaximum`: `minimum: 5,
 *   exclusiveMinimum: true` is `exclusiveMinimum: 5`; `false` (or `true`
 *   without a bound) is removed.
 * - `example: v` is `examples: [v]` (unless the schema already has `examples`).
 * - `type: string` with `format: binary` is raw bytes: `contentMediaType`
 *   (the body's media type for a body's own schema, else
 *   `application/octet-stream`); `format: byte` is `contentEncoding:
 *   base64`. The `format` is removed, as in the 3.1 migration guide.
 * - a discriminator mapping value that is a bare component name (`Cat`)
 *   is written as the reference it means (`#/components/schemas/Cat`).
 * - `pattern`: 3.0 names ECMA-262 regular expressions, which read identity
 *   escapes (`\_`, `\:`) as the character; the validators compile with the
 *   `u` flag, which refuses them, so they are written as the character
 *   (same meaning). A pattern that is no ECMAScript regular expression at
 *   all (Java's `\p{Print}`, a number) is left out, with a warning: it
 *   asserts nothing, rather than refusing the whole document (the tools
 *   people compare with ignore `pattern`).
 */
import { isPlainObject, type Pointer } from "../json-pointer.js";
import type { Pair } from "./history.js";

/** Keywords that only annotate: kept beside a `$ref`, and outside the `anyOf` a nullable schema becomes. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "deprecated",
  "readOnly",
  "writeOnly",
  "default",
  "example",
  "examples",
  "externalDocs",
  "xml",
  "$comment",
]);
const isAnnotation = (keyword: string): boolean => ANNOTATIONS.has(keyword) || keyword.startsWith("x-");

const COMPOSITIONS = ["allOf", "anyOf", "oneOf"];

export interface SchemaNotes {
  /** The siblings of a `$ref` dropped, by pointer (as written). */
  readonly droppedRefSiblings: Pointer[];
  /** The `pattern`s left out, no ECMAScript regular expressions, by pointer (as written). */
  readonly droppedPatterns: Pointer[];
  /** The objects holding a `$ref` that points deeper than a component (`#/components/schemas/A/properties/b`): it may point into a schema that moves. */
  readonly deepRefs: Record<string, unknown>[];
  /** The discriminator mappings, whose values are references too. */
  readonly mappings: Record<string, unknown>[];
}

/** A `$ref` deeper than `#/components/schemas/Name` (three segments, or fewer slashes). */
const isDeepRef = (ref: string): boolean => {
  let slashes = 0;
  for (let i = 0; i < ref.length; i++) if (ref.charCodeAt(i) === 47 && ++slashes > 3) return true;
  return false;
};

/**
 * Rewrites `schema` (at `path` in the document as written, a body's own
 * schema when `media` is given) and returns what moved, for the history.
 */
export function readSchema30(
  schema: Record<string, unknown>,
  path: Pointer,
  media: string | undefined,
  notes: SchemaNotes,
): Pair[] {
  const pairs: Pair[] = [];
  const nullable = schema.nullable === true ? "nullable" : schema["x-nullable"] === true ? "x-nullable" : undefined;
  if (typeof schema.nullable === "boolean") delete schema.nullable;
  if (typeof schema["x-nullable"] === "boolean") delete schema["x-nullable"];

  if (typeof schema.$ref === "string") {
    for (const keyword of Object.keys(schema)) {
      if (keyword === "$ref" || isAnnotation(keyword)) continue;
      notes.droppedRefSiblings.push([...path, keyword]);
      delete schema[keyword];
    }
  }

  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof schema[exclusive] !== "boolean") continue;
    if (schema[exclusive] === true && typeof schema[bound] === "number") {
      schema[exclusive] = schema[bound];
      delete schema[bound];
      pairs.push({ now: [exclusive], before: [bound] });
    } else {
      delete schema[exclusive];
    }
  }

  if (Object.hasOwn(schema, "example") && !Object.hasOwn(schema, "examples")) {
    schema.examples = [schema.example];
    delete schema.example;
    pairs.push(
      { now: ["examples", "0"], before: ["example"] },
      { now: ["examples"], before: ["example"], aliasOnly: true },
    );
  }

  const stringy = schema.type === undefined || schema.type === "string";
  if (stringy && (schema.format === "binary" || schema.format === "byte")) {
    const binary = schema.format === "binary";
    const keyword = binary ? "contentMediaType" : "contentEncoding";
    if (!Object.hasOwn(schema, keyword)) {
      schema[keyword] = binary ? bytesMediaType(media) : "base64";
      delete schema.format;
      pairs.push({ now: [keyword], before: ["format"] });
    }
  }

  if (Object.hasOwn(schema, "pattern")) {
    const pattern = ecmaPattern(schema.pattern);
    if (pattern === undefined) {
      notes.droppedPatterns.push([...path, "pattern"]);
      delete schema.pattern;
    } else schema.pattern = pattern;
  }

  const discriminator = schema.discriminator;
  if (isPlainObject(discriminator) && isPlainObject(discriminator.mapping)) {
    notes.mappings.push(discriminator.mapping);
    for (const [tag, target] of Object.entries(discriminator.mapping)) {
      if (typeof target === "string" && target !== "" && !target.includes("#") && !target.includes("/"))
        discriminator.mapping[tag] = `#/components/schemas/${target}`;
    }
  }

  let holder = schema;
  if (nullable !== undefined) {
    const admitted = admitNull(schema, nullable);
    pairs.push(...admitted.pairs);
    if (admitted.inner !== undefined) holder = admitted.inner;
  }
  if (typeof holder.$ref === "string" && isDeepRef(holder.$ref)) notes.deepRefs.push(holder);
  return pairs;
}

/** The media type of raw bytes: the body's own (when it names one type), else `application/octet-stream`. */
function bytesMediaType(media: string | undefined): string {
  return media !== undefined &&
    /^[\w.+-]+\/[\w.+-]+$/.test(media) &&
    !/\*/.test(media) &&
    !/json|multipart|form-urlencoded/i.test(media)
    ? media
    : "application/octet-stream";
}

/** Makes `schema` admit `null` too; returns the moves, and the new object its assertions moved into, if any. */
function admitNull(
  schema: Record<string, unknown>,
  nullableKey: string,
): { pairs: Pair[]; inner?: Record<string, unknown> } {
  const composed = typeof schema.$ref === "string" || COMPOSITIONS.some((keyword) => Array.isArray(schema[keyword]));
  if (!composed) {
    const type = schema.type;
    if (typeof type === "string") {
      if (type !== "null") schema.type = [type, "null"];
    } else if (Array.isArray(type)) {
      if (!type.includes("null")) schema.type = [...type, "null"];
    }
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return { pairs: [] };
  }
  const asserting = Object.keys(schema).filter((keyword) => !isAnnotation(keyword));
  const inner: Record<string, unknown> = {};
  for (const keyword of asserting) {
    inner[keyword] = schema[keyword];
    delete schema[keyword];
  }
  const pairs: Pair[] = [];
  const single = asserting.length === 1 && asserting[0] === "allOf" && (inner.allOf as unknown[]).length === 1;
  if (single) {
    schema.anyOf = [(inner.allOf as unknown[])[0], { type: "null" }];
    pairs.push({ now: ["anyOf", "0"], before: ["allOf", "0"] }, { now: ["anyOf"], before: ["allOf"], aliasOnly: true });
  } else {
    schema.anyOf = [inner, { type: "null" }];
    for (const keyword of asserting) pairs.push({ now: ["anyOf", "0", keyword], before: [keyword] });
    pairs.push({ now: ["anyOf", "0"], before: [], aliasOnly: true }, { now: ["anyOf"], before: [], aliasOnly: true });
  }
  pairs.push({ now: ["anyOf", "1"], before: [nullableKey], aliasOnly: true });
  return { pairs, ...(!single && { inner }) };
}

/** Syntax characters, which stay escaped under the `u` flag (and `-` inside a class). */
const SYNTAX = new Set("^$\\.*+?()[]{}|/");

const compiles = (pattern: string): boolean => {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
};

/** The pattern the validators compile (`u` flag) with the meaning ECMA-262 gives `pattern`; undefined when it has none. */
export function ecmaPattern(pattern: unknown): string | undefined {
  if (typeof pattern !== "string") return undefined;
  if (compiles(pattern)) return pattern;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i]!;
      // Letters and digits are escapes of their own (`\d`, `\p{…}`); syntax characters stay escaped.
      out += /[A-Za-z0-9]/.test(next) || SYNTAX.has(next) || (inClass && next === "-") ? c + next : next;
      continue;
    }
    if (c === "[" && !inClass) inClass = true;
    else if (c === "]" && inClass) inClass = false;
    out += c;
  }
  // Without the `u` flag, the original must be a regular expression too: the rewrite only spells it for `u`.
  let plain = false;
  try {
    new RegExp(pattern);
    plain = true;
  } catch {
    plain = false;
  }
  return plain && compiles(out) ? out : undefined;
}
