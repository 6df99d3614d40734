/**
 * The receive level of the schema, derived from the one source by a fixed
 * rule (schema/CONVENTIONS.md, "Two validation levels"):
 *
 * - the *strict* level is the schema as written: every rule the documents
 *   state (what request bodies, the fixture suite's strict cases and server
 *   conformance checks use);
 * - the *receive* level keeps only the shape each type promises, which is
 *   what a client applies to what it reads, so that a message carrying the
 *   fields its type promises is delivered.
 *
 * Kept: `type`, `required`, `properties`/`patternProperties`/`items`/
 * `prefixItems` (their subschemas derived in turn), `$ref`, `const`,
 * `allOf`/`anyOf`, `oneOf` (as `anyOf`, unless a `discriminator` picks the
 * one branch), `discriminator`, an `if` with both `then` and `else` (the
 * CONVENTIONS "one of two shapes"; the `if` is a selector and is kept as
 * written), `additionalProperties` when it is a schema, annotations.
 * Dropped: everything else that asserts (`pattern`, lengths, counts,
 * numeric limits, `enum`, `format`, `not`, `propertyNames`, dependent
 * keywords, `additionalProperties: false`, a property whose schema is
 * `false`, an `if` with only `then` or only `else`, the asserting vendor
 * keywords). Two vendor keywords adjust it: `x-receive: [keyword, ...]`
 * keeps those keywords of the same schema at the receive level (as
 * written), and `x-strict-only: true` makes a whole subschema strict-only
 * (it is `true` at the receive level), the way to add a strict-only rule in
 * an `allOf` branch.
 *
 * A vendor keyword (`x-...`) the generator does not implement asserts
 * nothing at either level and is kept. Any other keyword the rule does not
 * list fails generation: adding a keyword to the schema subset means
 * deciding its level here.
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { EmitError } from "../../errors.js";
import { ASSERTING_KEYWORD_NAMES } from "../../keywords/index.js";
import { isKnownKeyword } from "../../load/validate-schemas.js";
import { ANNOTATION_KEYWORDS } from "./annotations.js";

export const RECEIVE_KEEPS = "x-receive";
export const STRICT_ONLY = "x-strict-only";

/** Keywords whose value is a schema, derived recursively. */
const SUBSCHEMA = new Set(["items", "additionalProperties", "contains", "unevaluatedItems", "unevaluatedProperties"]);
const SUBSCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SUBSCHEMA_MAP = new Set(["properties", "patternProperties"]);
/** Containers of schemas that assert nothing where they stand; what a `$ref` reads there is derived too. */
const DEFINITIONS = new Set(["$defs", "definitions"]);
/** Shape keywords kept as they are. */
const SHAPE = new Set(["type", "required", "$ref", "$dynamicRef", "$dynamicAnchor", "const", "discriminator"]);
/** Keywords that assert nothing (kept, so receive-level errors and docs read the same). */
const ANNOTATIONS = new Set([
  "$id", "$schema", "$anchor", "$comment", "$vocabulary", "title", "description", "default", "deprecated", "readOnly", "writeOnly",
  "examples", "example", "externalDocs", "xml", "contentEncoding", "contentMediaType", "contentSchema",
  "x-known-values", "x-terminal", "x-item-schema", "x-transcript-rules",
]);

/**
 * Keywords the receive level drops: rules only a conformance check needs.
 * `x-receive` may name any of these.
 */
export const STRICT_KEYWORDS: readonly string[] = [
  "enum", "pattern", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minContains", "maxContains", "contains",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties",
  "propertyNames", "dependentRequired", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties", "format", "not",
  // Every vendor keyword the generated validators enforce (generator/keywords/): byte limits, cross-field rules.
  ...ASSERTING_KEYWORD_NAMES,
];
const STRICT = new Set(STRICT_KEYWORDS);

const COMPONENT_POINTER = "/components/schemas/";

/** The receive level of every component (same names, so `$ref`s resolve unchanged). */
export function receiveComponents(schemas: Readonly<Record<string, SchemaObject | boolean>>): Record<string, SchemaObject | boolean> {
  const tags = discriminatorTags(schemas);
  const out: Record<string, SchemaObject | boolean> = {};
  for (const name of Object.keys(schemas).sort()) out[name] = receiveSchema(schemas[name]!, `${COMPONENT_POINTER}${escape(name)}`, tags);
  return out;
}

/**
 * The receive level of one schema; `at` is its JSON pointer in the bundled
 * document (for errors). `tags`: the document's discriminator property
 * names, whose `enum` (a branch's list of tag values) is kept: it is the tag,
 * not a closed list.
 */
export function receiveSchema(schema: SchemaObject | boolean, at: string, tags: ReadonlySet<string> = new Set(), isTag = false): SchemaObject | boolean {
  if (typeof schema === "boolean") return schema;
  if (schema[STRICT_ONLY] === true) return true;
  const node = schema as Record<string, unknown>;
  const keeps = readKeeps(node, at);
  const out: Record<string, unknown> = {};
  const hasBothBranches = "then" in node && "else" in node;
  for (const key of Object.keys(node)) {
    const value = node[key];
    const here = `${at}/${escape(key)}`;
    if (key === RECEIVE_KEEPS || key === STRICT_ONLY) continue;
    if (keeps.has(key) || (isTag && key === "enum")) out[key] = value;
    else if (key === "if") {
      if (hasBothBranches) out[key] = value; // a selector, not an assertion
    } else if (key === "then" || key === "else") {
      if (hasBothBranches) out[key] = receiveSchema(value as SchemaObject, here, tags);
    } else if (key === "additionalProperties" && value === false) {
      // Unknown fields never make a received message invalid.
    } else if (key === "oneOf" && !("discriminator" in node)) {
      // Without the discriminator, two branches that differed only by a
      // dropped rule could both match a valid message: anyOf keeps it valid.
      const branches = (value as SchemaObject[]).map((b, i) => receiveSchema(b, `${here}/${i}`, tags));
      if ("anyOf" in node) out["allOf"] = [...((out["allOf"] as unknown[]) ?? []), { anyOf: branches }];
      else out["anyOf"] = branches;
    } else if (SUBSCHEMA.has(key) && !STRICT.has(key)) {
      out[key] = receiveSchema(value as SchemaObject, here, tags);
    } else if (SUBSCHEMA_LIST.has(key)) {
      const derived = (value as SchemaObject[]).map((b, i) => receiveSchema(b, `${here}/${i}`, tags));
      out[key] = key === "allOf" && Array.isArray(out[key]) ? [...(out[key] as unknown[]), ...derived] : derived;
    } else if (SUBSCHEMA_MAP.has(key)) {
      const map: Record<string, unknown> = {};
      for (const [prop, sub] of Object.entries(value as Record<string, SchemaObject | boolean>)) {
        if (sub === false) continue; // "must not be present" is a strict rule
        map[prop] = receiveSchema(sub, `${here}/${escape(prop)}`, tags, key === "properties" && tags.has(prop));
      }
      out[key] = map;
    } else if (DEFINITIONS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
        map[name] = sub !== null && typeof sub === "object" && !Array.isArray(sub) ? receiveSchema(sub as SchemaObject, `${here}/${escape(name)}`, tags) : sub;
      }
      out[key] = map;
    } else if (SHAPE.has(key) || ANNOTATIONS.has(key) || DEFINITIONS.has(key)) {
      out[key] = value;
    } else if (key.startsWith("x-") && !STRICT.has(key)) {
      // A vendor keyword the generator does not implement is an annotation
      // (the loader accepts it as one): it asserts nothing at either level.
      out[key] = value;
    } else if (STRICT.has(key)) {
      // dropped: a rule only the strict level checks
    } else if (ANNOTATION_KEYWORDS.has(key) || !isKnownKeyword(key)) {
      // The other validators' annotations (3.0's `nullable` among them), and a keyword of no dialect, which JSON Schema says is one.
      out[key] = value;
    } else {
      throw new EmitError(
        "unsupported-schema",
        "validators",
        `Keyword ${JSON.stringify(key)} at #${here} has no validation level: the receive-level rule (generator/emit/validators/receive-level.ts) does not know whether it is shape or a strict-only rule.`,
        "Use the keywords schema/CONVENTIONS.md lists, or add the keyword to the receive-level rule and document its level there.",
        here,
      );
    }
  }
  return out as SchemaObject;
}

/** Every `discriminator.propertyName` of the document. */
function discriminatorTags(schemas: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  const tags = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      const d = (v as { discriminator?: { propertyName?: unknown } }).discriminator;
      if (d !== null && typeof d === "object" && typeof d.propertyName === "string") tags.add(d.propertyName);
      for (const [k, sub] of Object.entries(v)) if (k !== "examples" && k !== "default" && k !== "const" && k !== "enum") walk(sub);
    }
  };
  walk(schemas);
  return tags;
}

function readKeeps(node: Record<string, unknown>, at: string): ReadonlySet<string> {
  const keeps = node[RECEIVE_KEEPS];
  if (keeps === undefined) return new Set();
  const here = `${at}/${RECEIVE_KEEPS}`;
  const list = Array.isArray(keeps) ? (keeps as unknown[]) : [];
  for (const k of list) {
    if (typeof k !== "string" || !STRICT.has(k)) {
      throw new EmitError("unsupported-schema", "validators", `${RECEIVE_KEEPS} at #${here} names ${JSON.stringify(k)}, which is not a keyword the receive level drops.`, `List only dropped keywords (${STRICT_KEYWORDS.slice(0, 6).join(", ")}, ...): the others are kept anyway.`, here);
    }
    if (!(k in node)) {
      throw new EmitError("unsupported-schema", "validators", `${RECEIVE_KEEPS} at #${here} names ${JSON.stringify(k)}, but the schema has no ${JSON.stringify(k)}.`, `Remove it from ${RECEIVE_KEEPS}, or put ${RECEIVE_KEEPS} beside the keyword it keeps.`, here);
    }
  }
  return new Set(list as string[]);
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
