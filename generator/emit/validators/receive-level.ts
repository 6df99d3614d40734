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
 * an `allOf` branch. Two more state a documented rule that real servers
 * break and the official SDKs read anyway, reported when broken: the
 * object form `x-strict-only: { section }` (the subschema is checked
 * without asserting) and `x-receive-default: { section, members }` (those
 * members are not required nor checked, but read as documented); both
 * become the derived keyword `x-tolerated` (generator/keywords/x-tolerated.ts)
 * of the schema they apply to, hoisted out of an `allOf` branch so that it
 * runs after the schema's other keywords.
 *
 * A vendor keyword (`x-...`) the generator does not implement asserts
 * nothing at either level and is kept. Any other keyword the rule does not
 * list fails generation: adding a keyword to the schema subset means
 * deciding its level here.
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { EmitError } from "../../errors.js";
import { ASSERTING_KEYWORD_NAMES } from "../../keywords/index.js";
import { escapePointerSegment, isPlainObject } from "../../load/json-pointer.js";
import { isKnownKeyword } from "../../load/validate-schemas.js";
import type { Tolerated, ToleratedRead } from "../../keywords/x-tolerated.js";
import { ANNOTATION_KEYWORDS } from "./annotations.js";

export const RECEIVE_KEEPS = "x-receive";
export const STRICT_ONLY = "x-strict-only";
export const RECEIVE_DEFAULT = "x-receive-default";
export const TOLERATED = "x-tolerated";

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
  "$id",
  "$schema",
  "$anchor",
  "$comment",
  "$vocabulary",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "example",
  "externalDocs",
  "xml",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "x-known-values",
  "x-terminal",
  "x-item-schema",
  "x-transcript-rules",
]);

/**
 * Keywords the receive level drops: rules only a conformance check needs.
 * `x-receive` may name any of these.
 */
export const STRICT_KEYWORDS: readonly string[] = [
  "enum",
  "pattern",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minContains",
  "maxContains",
  "contains",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedItems",
  "unevaluatedProperties",
  "format",
  "not",
  // Every vendor keyword the generated validators enforce (generator/keywords/): byte limits, cross-field rules.
  ...ASSERTING_KEYWORD_NAMES,
];
const STRICT = new Set(STRICT_KEYWORDS);

const COMPONENT_POINTER = "/components/schemas/";

/**
 * The receive level of every component, or of those `names` (same names, so
 * `$ref`s resolve unchanged). The tags kept are those of every component's
 * discriminators.
 */
export function receiveComponents(
  schemas: Readonly<Record<string, SchemaObject | boolean>>,
  names: readonly string[] = Object.keys(schemas).sort(),
): Record<string, SchemaObject | boolean> {
  const tags = discriminatorTags(schemas);
  const out: Record<string, SchemaObject | boolean> = {};
  for (const name of names)
    out[name] = receiveSchema(schemas[name]!, `${COMPONENT_POINTER}${escapePointerSegment(name)}`, tags);
  return out;
}

/**
 * The receive level of one schema; `at` is its JSON pointer in the bundled
 * document (for errors). `tags`: the document's discriminator property
 * names, whose `enum` (a branch's list of tag values) is kept: it is the tag,
 * not a closed list.
 */
export function receiveSchema(
  schema: SchemaObject | boolean,
  at: string,
  tags: ReadonlySet<string> = new Set(),
  isTag = false,
): SchemaObject | boolean {
  if (typeof schema === "boolean") return schema;
  if (schema[STRICT_ONLY] === true) return true;
  if (isPlainObject(schema[STRICT_ONLY])) return { [TOLERATED]: toleratedRule(schema as Record<string, unknown>, at) };
  const node = schema as Record<string, unknown>;
  const keeps = readKeeps(node, at);
  const out: Record<string, unknown> = {};
  const tolerated: Tolerated[] = [];
  const read = RECEIVE_DEFAULT in node ? receiveDefaults(node, at) : undefined;
  if (read !== undefined) tolerated.push(read);
  const hasBothBranches = "then" in node && "else" in node;
  for (const key of Object.keys(node)) {
    const value = node[key];
    const here = `${at}/${escapePointerSegment(key)}`;
    if (key === RECEIVE_KEEPS || key === STRICT_ONLY || key === RECEIVE_DEFAULT) continue;
    if (key === TOLERATED) {
      throw new EmitError(
        "unsupported-schema",
        "validators",
        `${TOLERATED} at #${here} is derived by the generator, never written.`,
        `Write ${STRICT_ONLY}: { section } on the rule's subschema, or ${RECEIVE_DEFAULT} (\`mantyx-wire keywords\` lists both).`,
        here,
      );
    }
    if (read !== undefined && key === "required") {
      // Members read as documented are not required when reading.
      const rest = (value as string[]).filter((name) => read.read![name] === undefined);
      if (rest.length > 0) out[key] = rest;
      continue;
    }
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
    } else if (key === "allOf") {
      // A tolerated rule in a branch applies to this schema: hoisted, so it runs after this schema's other keywords.
      const derived: Array<SchemaObject | boolean> = [];
      (value as SchemaObject[]).forEach((b, i) => {
        if (isPlainObject(b) && isPlainObject(b[STRICT_ONLY])) tolerated.push(toleratedRule(b, `${here}/${i}`));
        else derived.push(receiveSchema(b, `${here}/${i}`, tags));
      });
      const all = [...((out[key] as unknown[] | undefined) ?? []), ...derived];
      if (all.length > 0) out[key] = all;
    } else if (SUBSCHEMA_LIST.has(key)) {
      out[key] = (value as SchemaObject[]).map((b, i) => receiveSchema(b, `${here}/${i}`, tags));
    } else if (SUBSCHEMA_MAP.has(key)) {
      const map: Record<string, unknown> = {};
      for (const [prop, sub] of Object.entries(value as Record<string, SchemaObject | boolean>)) {
        if (sub === false) continue; // "must not be present" is a strict rule
        if (key === "properties" && read !== undefined && read.read![prop] !== undefined) continue; // read as documented instead
        map[prop] = receiveSchema(
          sub,
          `${here}/${escapePointerSegment(prop)}`,
          tags,
          key === "properties" && tags.has(prop),
        );
      }
      out[key] = map;
    } else if (DEFINITIONS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
        map[name] =
          sub !== null && typeof sub === "object" && !Array.isArray(sub)
            ? receiveSchema(sub as SchemaObject, `${here}/${escapePointerSegment(name)}`, tags)
            : sub;
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
        "Use the keywords `mantyx-wire keywords` lists, or add the keyword to the receive-level rule and document its level there.",
        here,
      );
    }
  }
  if (tolerated.length > 0) out[TOLERATED] = mergeTolerated(tolerated);
  return out as SchemaObject;
}

/** `x-strict-only: { section }`'s subschema as a tolerated rule: the subschema as written, without the keyword. */
function toleratedRule(schema: Record<string, unknown>, at: string): Tolerated {
  const { [STRICT_ONLY]: only, ...rule } = schema;
  const refs = JSON.stringify(rule).match(/"\$(?:dynamic)?[rR]ef"/);
  if (refs !== null) {
    const here = `${at}/${STRICT_ONLY}`;
    throw new EmitError(
      "unsupported-schema",
      "validators",
      `The tolerated rule at #${at} (${STRICT_ONLY}: { section }) uses a $ref: the receive level checks it with the receive level's components, which would not be the rule as written.`,
      "State the rule without $ref (a `required`, an `anyOf` of `required`s), or use x-strict-only: true.",
      here,
    );
  }
  return { section: (only as { section: string }).section, rule };
}

/** JSON types of `x-receive-default` members: a member's `type` and the JSON type of its default must agree. */
const READ_TYPES: Readonly<Record<string, string>> = {
  integer: "number",
  number: "number",
  string: "string",
  boolean: "boolean",
};

/** `x-receive-default` of `node` as a tolerated rule: each member's default, `from` and what its own schema asks. */
function receiveDefaults(node: Record<string, unknown>, at: string): Tolerated {
  const here = `${at}/${RECEIVE_DEFAULT}`;
  const { section, members } = node[RECEIVE_DEFAULT] as {
    section: string;
    members: Record<string, { default: string | number | boolean; from?: string }>;
  };
  const properties = (isPlainObject(node["properties"]) ? node["properties"] : {}) as Record<string, unknown>;
  const fail = (message: string): never => {
    throw new EmitError(
      "unsupported-schema",
      "validators",
      `${RECEIVE_DEFAULT} at #${here}: ${message}`,
      "Name declared properties whose schema is a `type` (integer, number, string or boolean), at most a `minimum`, and annotations, with a default of that type (`mantyx-wire keywords`).",
      here,
    );
  };
  const read: Record<string, ToleratedRead> = {};
  for (const [member, { default: value, from }] of Object.entries(members)) {
    if (member in Object.prototype) fail(`member ${JSON.stringify(member)} is a name every object inherits`);
    const schema = properties[member];
    if (!isPlainObject(schema)) fail(`member ${JSON.stringify(member)} is not a declared property with a schema`);
    const { type, minimum, ...rest } = schema as Record<string, unknown>;
    const asserting = Object.keys(rest).filter((k) => !ANNOTATIONS.has(k) && !ANNOTATION_KEYWORDS.has(k));
    if (asserting.length > 0)
      fail(`member ${JSON.stringify(member)}'s schema has ${asserting.join(", ")}, which a default cannot read`);
    if (typeof type !== "string" || READ_TYPES[type] === undefined)
      fail(`member ${JSON.stringify(member)}'s schema needs a \`type\` of integer, number, string or boolean`);
    if (READ_TYPES[type as string] !== typeof value)
      fail(`member ${JSON.stringify(member)}'s default ${JSON.stringify(value)} is not of its type ${String(type)}`);
    if (type === "integer" && !Number.isInteger(value))
      fail(`member ${JSON.stringify(member)}'s default ${JSON.stringify(value)} is not an integer`);
    if (minimum !== undefined && (typeof minimum !== "number" || (value as number) < minimum))
      fail(`member ${JSON.stringify(member)}'s default is below its minimum`);
    read[member] = {
      default: value,
      type: type as ToleratedRead["type"],
      ...(from !== undefined && { from }),
      ...(minimum !== undefined && { minimum: minimum as number }),
    };
  }
  return { section, read };
}

/** The tolerated rules of one schema as one `x-tolerated` value: the sections named together, the rules all applied, every member read. */
function mergeTolerated(list: readonly Tolerated[]): Tolerated {
  if (list.length === 1) return list[0]!;
  const sections = [...new Set(list.map((t) => t.section))];
  const rules = list.flatMap((t) => (t.rule === undefined ? [] : [t.rule]));
  const read = Object.assign({}, ...list.map((t) => t.read ?? {})) as Record<string, ToleratedRead>;
  return {
    section: sections.join("; "),
    ...(rules.length > 0 && { rule: rules.length === 1 ? rules[0] : { allOf: rules } }),
    ...(Object.keys(read).length > 0 && { read }),
  };
}

/** Every `discriminator.propertyName` of the document. */
function discriminatorTags(schemas: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  const tags = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      const d = (v as { discriminator?: { propertyName?: unknown } }).discriminator;
      if (d !== null && typeof d === "object" && typeof d.propertyName === "string") tags.add(d.propertyName);
      for (const [k, sub] of Object.entries(v))
        if (k !== "examples" && k !== "default" && k !== "const" && k !== "enum") walk(sub);
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
      throw new EmitError(
        "unsupported-schema",
        "validators",
        `${RECEIVE_KEEPS} at #${here} names ${JSON.stringify(k)}, which is not a keyword the receive level drops.`,
        `List only dropped keywords (${STRICT_KEYWORDS.slice(0, 6).join(", ")}, ...): the others are kept anyway.`,
        here,
      );
    }
    if (!(k in node)) {
      throw new EmitError(
        "unsupported-schema",
        "validators",
        `${RECEIVE_KEEPS} at #${here} names ${JSON.stringify(k)}, but the schema has no ${JSON.stringify(k)}.`,
        `Remove it from ${RECEIVE_KEEPS}, or put ${RECEIVE_KEEPS} beside the keyword it keeps.`,
        here,
      );
    }
  }
  return new Set(list as string[]);
}
