/**
 * Turns `components.schemas` into what ajv compiles: a deep copy in which
 * every OpenAPI `discriminator.mapping` has been checked against the union's
 * branches and then dropped, and every property named `__proto__` is stated
 * as a pattern property (see `moveProtoProperty`).
 *
 * Why: ajv's `discriminator` derives the tag -> branch map from each branch's
 * `const` and rejects `mapping` ("mapping is not supported"). The schema
 * states both, so they must agree; a mapping that disagrees with the consts
 * would make ajv validate differently from what the document says, so it
 * fails generation here with the fix.
 *
 * A union whose object branches do not all state the tag as ajv's
 * discriminator needs it (in `required`, with a `const` or `enum`: valid
 * OpenAPI, where the discriminator is a hint, as in documents written
 * elsewhere) keeps its `oneOf` without the `discriminator`: the same
 * verdicts (JSON Schema's `oneOf`), only without the switch on the tag.
 */
import type { SchemaObject } from "openapi3-ts/oas31";
import { EmitError } from "../../errors.js";
import { annotationKeywords, assertingKeywords, derivedKeywords, keywordNames } from "../../keywords/index.js";
import { escapePointerSegment, getAtPointer, parseRefFragment } from "../../load/json-pointer.js";
import { mappingRef } from "../../load/refs.js";
import { branchTags, declaredTags } from "../discriminator-tags.js";
import { dropAnnotations } from "./annotations.js";

const COMPONENT_REF = "#/components/schemas/";

/** Keywords whose values are data, not subschemas: never walked. */
const DATA_KEYWORDS = new Set(["examples", "example", "default", "const", "enum", "x-known-values"]);
/** Keywords whose value maps names to subschemas. */
const NAME_MAPS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs"]);

/**
 * The loader refuses such a mapping first, with its place in the file
 * (generator/load/check-discriminators.ts); this is for models built by hand.
 */
export class DiscriminatorMappingError extends EmitError {
  constructor(message: string, pointer: string) {
    super(
      "unsupported-schema",
      "validators",
      message,
      "Make discriminator.mapping name, for each tag value, the oneOf branch whose tag const is that value.",
      pointer,
    );
  }
}

export function isDiscriminatorMappingError(e: unknown): e is DiscriminatorMappingError {
  return e instanceof DiscriminatorMappingError;
}

/** The vendor keywords the validators know (schema/CONVENTIONS.md). */
const KNOWN_VENDOR_KEYWORDS = new Set(keywordNames([...assertingKeywords, ...annotationKeywords, ...derivedKeywords]));

/**
 * `x-` keywords in the component schemas that the generator does not know
 * (tool-specific extensions of documents written elsewhere, such as
 * `x-enum-varnames`, or a misspelt vendor keyword), each with the pointer
 * of its first use. OpenAPI allows extensions in a Schema Object, so they
 * are annotations: dropped from what ajv compiles, and reported (emit/diagnostics.ts).
 */
export function unknownVendorKeywords(schemas: Readonly<Record<string, SchemaObject>>): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of Object.keys(schemas).sort()) {
    visit(schemas[name], `/components/schemas/${escapePointerSegment(name)}`, (node, at) => {
      for (const key of Object.keys(node)) {
        if (key.startsWith("x-") && !KNOWN_VENDOR_KEYWORDS.has(key) && !found.has(key)) found.set(key, `${at}/${key}`);
      }
    });
  }
  return found;
}

/**
 * Checked copy of `schemas` with every `discriminator.mapping`, every
 * unknown `x-` keyword and every annotation (./annotations.ts) removed.
 */
export function prepareComponents(schemas: Readonly<Record<string, SchemaObject>>): Record<string, SchemaObject> {
  const copy = structuredClone(schemas) as Record<string, SchemaObject>;
  const targets = refTargetsInside(copy);
  for (const name of Object.keys(copy).sort())
    visit(copy[name], `${COMPONENT_REF}${name}`, (node, at) => prepareNode(node, at, schemas));
  const prepared = dropAnnotations(copy);
  keepRefTargets(prepared, targets, schemas);
  return prepared;
}

/**
 * Each schema a `$ref` reads inside a component (`#/components/schemas/A/x-defs/b`,
 * `.../definitions/b`), by its path below `components.schemas` and the object
 * itself: a `$ref` into an unknown keyword, which JSON Schema allows (the
 * keyword is an annotation; the pointer still names a schema).
 */
function refTargetsInside(copy: Record<string, SchemaObject>): Array<{ path: string[]; node: unknown }> {
  const refs = new Set<string>();
  for (const name of Object.keys(copy)) {
    visit(copy[name], "", (node) => {
      if (typeof node.$ref === "string" && node.$ref.startsWith(COMPONENT_REF)) refs.add(node.$ref);
    });
  }
  const targets: Array<{ path: string[]; node: unknown }> = [];
  for (const ref of [...refs].sort()) {
    const segments = parseRefFragment(ref)?.slice(2);
    if (segments === undefined || segments.length < 2) continue; // a component itself is always there
    const node = getAtPointer(copy, segments);
    if (node !== null && typeof node === "object") targets.push({ path: segments, node });
  }
  return targets;
}

/**
 * What the copy ajv compiles needs from outside `components.schemas`: the
 * schemas `$ref`s of the components read elsewhere in the document
 * (`#/components/parameters/id/schema`, `#/paths/~1a/get/.../schema`), and
 * those they read in turn, each prepared like a component (`derive`: the
 * receive level's derivation first), placed at its own path in an object
 * to merge into ajv's document schema, so the `$ref`s resolve unchanged.
 * Empty when every `$ref` stays among the components.
 */
export function outsideRefTargets(
  document: unknown,
  prepared: Readonly<Record<string, SchemaObject>>,
  schemas: Readonly<Record<string, SchemaObject>>,
  derive: (schema: SchemaObject, pointer: string) => SchemaObject = (schema) => schema,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const done = new Set<string>();
  const pending: string[] = [];
  const collect = (value: unknown): void =>
    visit(value, "", (node) => {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/") && !ref.startsWith(COMPONENT_REF) && !done.has(ref)) {
        done.add(ref);
        pending.push(ref);
      }
    });
  for (const name of Object.keys(prepared).sort()) collect(prepared[name]);
  while (pending.length > 0) {
    const ref = pending.shift()!;
    const path = parseRefFragment(ref);
    if (path === undefined || path.length === 0 || (path[0] === "components" && path[1] === "schemas")) continue;
    const target = getAtPointer(document, path);
    if (target === null || typeof target !== "object" || Array.isArray(target)) continue;
    const copy = derive(structuredClone(target) as SchemaObject, ref.slice(1));
    visit(copy, ref, (node, at) => prepareNode(node, at, schemas));
    const ready = dropAnnotations({ target: copy }).target;
    let parent = out;
    for (const segment of path.slice(0, -1)) {
      const next = parent[segment];
      if (next === null || typeof next !== "object" || Array.isArray(next)) parent[segment] = {};
      parent = parent[segment] as Record<string, unknown>;
    }
    // A target inside another target already placed: that one holds it (prepared with it).
    if (getAtPointer(out, path) === undefined) parent[path[path.length - 1]!] = ready;
    collect(ready);
  }
  return out;
}

/**
 * Puts back each `$ref` target that dropping unknown keywords and
 * annotations took out of what ajv compiles (prepared like any schema), so
 * the `$ref` resolves: the keyword around it still asserts nothing (ajv
 * ignores a container it does not know; `strictSchema` is off).
 */
function keepRefTargets(
  prepared: Record<string, SchemaObject>,
  targets: ReadonlyArray<{ path: string[]; node: unknown }>,
  schemas: Readonly<Record<string, SchemaObject>>,
): void {
  for (const { path, node } of targets) {
    // Only where a dropped keyword took it: a target in a known place stays as prepared (a tagged branch, a moved `__proto__`).
    if (getAtPointer(prepared, path) !== undefined) continue;
    let parent: Record<string, unknown> = prepared as Record<string, unknown>;
    let ok = true;
    for (const segment of path.slice(0, -1)) {
      const next = parent[segment];
      if (next === undefined) parent[segment] = {};
      else if (next === null || typeof next !== "object" || Array.isArray(next)) {
        ok = false;
        break;
      }
      parent = parent[segment] as Record<string, unknown>;
    }
    if (!ok) continue;
    const at = `${COMPONENT_REF}${path.map((segment) => escapePointerSegment(segment)).join("/")}`;
    visit(node, at, (child, where) => prepareNode(child, where, schemas));
    parent[path[path.length - 1]!] = dropAnnotations({ target: node as SchemaObject }).target;
  }
}

/** The rewrites of one subschema of the copy ajv compiles (see prepareComponents). */
function prepareNode(node: Record<string, unknown>, at: string, schemas: Readonly<Record<string, SchemaObject>>): void {
  for (const key of Object.keys(node)) if (key.startsWith("x-") && !KNOWN_VENDOR_KEYWORDS.has(key)) delete node[key];
  const discriminator = node["discriminator"] as
    | { propertyName?: unknown; mapping?: Record<string, string> }
    | undefined;
  moveProtoProperty(node);
  if (discriminator === null || typeof discriminator !== "object") return;
  if (!("oneOf" in node)) {
    // Beside `allOf` (a base schema its variants extend, OpenAPI's own
    // Pet/Cat/Dog) or `anyOf`, or alone, a discriminator is a hint for
    // readers of the document; ajv's keyword needs a `oneOf` and refuses
    // it.
    if (typeof discriminator.propertyName === "string") delete node["discriminator"];
    return;
  }
  if (discriminator.mapping !== undefined) {
    checkMapping(node, discriminator.mapping, String(discriminator.propertyName), at, schemas);
    const { mapping: _dropped, ...rest } = discriminator;
    node["discriminator"] = rest;
  }
  tagBranches(node, String(discriminator.propertyName), discriminator.mapping ?? {}, schemas);
  if (refusal(node, String(discriminator.propertyName), schemas) !== undefined) delete node["discriminator"];
}

/** Why ajv's discriminator keyword would refuse a `oneOf`'s tags (an untagged branch, a tag two branches share), or undefined. */
function refusal(
  node: Record<string, unknown>,
  propertyName: string,
  schemas: Readonly<Record<string, SchemaObject>>,
): string | undefined {
  if (!everyObjectBranchTagged(node["oneOf"], propertyName, schemas))
    return `a branch of its oneOf has no \`${propertyName}\` tag (required, with a const or an enum)`;
  const seen = new Set<unknown>();
  for (const branch of node["oneOf"] as unknown[]) {
    for (const tag of tagsOf(branch, propertyName, schemas)) {
      if (seen.has(tag)) return `two branches of its oneOf share the \`${propertyName}\` tag ${JSON.stringify(tag)}`;
      seen.add(tag);
    }
  }
  return undefined;
}

/** The tag values a (tagged) branch gives `propertyName`. */
function tagsOf(branch: unknown, propertyName: string, schemas: Readonly<Record<string, SchemaObject>>): unknown[] {
  if (branch === null || typeof branch !== "object") return [];
  const ref = (branch as { $ref?: unknown }).$ref;
  const lone = typeof ref === "string" && ref.startsWith(COMPONENT_REF) && Object.keys(branch).length === 1;
  const target = (lone ? schemas[(ref as string).slice(COMPONENT_REF.length)] : branch) as
    | Record<string, unknown>
    | undefined;
  const tag = (target?.["properties"] as Record<string, { const?: unknown; enum?: unknown }> | undefined)?.[
    propertyName
  ];
  return tag === undefined ? [] : tag.const !== undefined ? [tag.const] : Array.isArray(tag.enum) ? tag.enum : [];
}

/**
 * The `discriminator` objects ajv's keyword refuses, which the validators
 * leave out (checking the union as a plain `oneOf`/`anyOf`): one beside an
 * `anyOf`, or on a `oneOf` whose branches are not each tagged by a tag of
 * their own. `[pointer, why]` each, for one warning per union. (Beside an
 * `allOf`, OpenAPI's base-schema pattern, a discriminator is a hint
 * nobody expects a validator to read: no warning.)
 */
export function refusedDiscriminators(schemas: Readonly<Record<string, SchemaObject>>): [string, string][] {
  const out: [string, string][] = [];
  const copy = structuredClone(schemas) as Record<string, SchemaObject>;
  for (const name of Object.keys(copy).sort()) {
    visit(copy[name], `/components/schemas/${escapePointerSegment(name)}`, (node, at) => {
      const discriminator = node["discriminator"] as
        | { propertyName?: unknown; mapping?: Record<string, string> }
        | undefined;
      if (discriminator === null || typeof discriminator !== "object" || typeof discriminator.propertyName !== "string")
        return;
      if (!("oneOf" in node)) {
        if ("anyOf" in node)
          out.push([`${at}/discriminator`, "it stands beside an anyOf (ajv's discriminator needs a oneOf)"]);
        return;
      }
      tagBranches(node, discriminator.propertyName, discriminator.mapping ?? {}, schemas);
      const why = refusal(node, discriminator.propertyName, schemas);
      if (why !== undefined) out.push([`${at}/discriminator`, why]);
    });
  }
  return out;
}

const PROTO = "__proto__";
/** Matches the one key `__proto__`. */
const PROTO_PATTERN = "^__proto__$";

/**
 * ajv skips a property named `__proto__` (its `properties` and
 * `additionalProperties` code filter that name out, a guard against
 * prototype pollution by schemas), so a declared `__proto__` property would
 * be neither checked nor allowed past `additionalProperties: false`. A
 * pattern property that matches exactly that key means the same in JSON
 * Schema (both apply to the same key, both count for
 * `additionalProperties` and `unevaluatedProperties`) and ajv compiles it:
 * its key loop reads own keys (`ownProperties`), so `JSON.parse`'s own
 * `__proto__` is matched and the prototype never is.
 */
function moveProtoProperty(node: Record<string, unknown>): void {
  const properties = node["properties"];
  if (properties === null || typeof properties !== "object" || !Object.hasOwn(properties, PROTO)) return;
  const { [PROTO]: schema, ...others } = properties as Record<string, unknown>;
  node["properties"] = others;
  const patterns = { ...(node["patternProperties"] as Record<string, unknown> | undefined) };
  patterns[PROTO_PATTERN] = Object.hasOwn(patterns, PROTO_PATTERN)
    ? { allOf: [patterns[PROTO_PATTERN], schema] }
    : schema;
  node["patternProperties"] = patterns;
}

/** Copy of `schemas` without any `discriminator`: the plain `oneOf` baseline the bench compares against. */
export function withoutDiscriminators(schemas: Readonly<Record<string, SchemaObject>>): Record<string, SchemaObject> {
  const copy = structuredClone(schemas) as Record<string, SchemaObject>;
  for (const name of Object.keys(copy)) {
    visit(copy[name], name, (node) => {
      if ("oneOf" in node) delete node["discriminator"];
    });
  }
  return copy;
}

function checkMapping(
  node: Record<string, unknown>,
  mapping: Record<string, string>,
  propertyName: string,
  at: string,
  schemas: Readonly<Record<string, SchemaObject>>,
): void {
  const fail = (why: string): never => {
    throw new DiscriminatorMappingError(
      `${at}/discriminator: ${why}. Make discriminator.mapping name, for each tag value, the oneOf branch whose "properties/${propertyName}/const" is that value.`,
      `${at.slice(1)}/discriminator`,
    );
  };
  const oneOf = node["oneOf"];
  if (!Array.isArray(oneOf)) fail("a discriminator needs a oneOf");
  const branchRefs = new Set((oneOf as Array<{ $ref?: unknown }>).map((b) => b.$ref));
  for (const tag of Object.keys(mapping).sort()) {
    const written = mapping[tag];
    const ref = typeof written === "string" ? mappingRef(written) : written;
    if (typeof ref !== "string" || !ref.startsWith(COMPONENT_REF))
      fail(`mapping "${tag}" is not a "${COMPONENT_REF}..." reference`);
    if (!branchRefs.has(ref)) fail(`mapping "${tag}" -> ${ref} is not one of the oneOf branches`);
    const target = schemas[(ref as string).slice(COMPONENT_REF.length)] as Record<string, unknown> | undefined;
    // A branch that declares no tag is tagged by the mapping (tagBranches).
    const declared = declaredTags(target, propertyName, { components: { schemas } });
    if (declared.length > 0 && !declared.includes(tag))
      fail(
        `mapping "${tag}" -> ${ref}, but that schema's "${propertyName}" const is ${declared.map((d) => JSON.stringify(d)).join(" or ")}`,
      );
  }
}

/**
 * States on each `oneOf` branch the tag OpenAPI gives it (../discriminator-tags.ts)
 * where ajv's discriminator would not find it: a branch whose component
 * declares no `const`/`enum` for the tag (tagged by the mapping, or by its
 * component name), declares it only inside an `allOf`, or does not
 * require it. The branch becomes `{ $ref, properties: { tag: { const } },
 * required: [tag] }` (an inline branch: `allOf: [branch]` instead of the
 * `$ref`), so the tag picks the branch as OpenAPI says, and the referenced
 * component itself is unchanged. A branch ajv already dispatches on is left
 * as written.
 */
function tagBranches(
  node: Record<string, unknown>,
  propertyName: string,
  mapping: Readonly<Record<string, unknown>>,
  schemas: Readonly<Record<string, SchemaObject>>,
): void {
  const oneOf = node["oneOf"];
  if (!Array.isArray(oneOf)) return;
  const document = { components: { schemas } };
  node["oneOf"] = oneOf.map((branch: unknown) => {
    if (branch === null || typeof branch !== "object" || isTagged(branch, propertyName, schemas)) return branch;
    const { tags } = branchTags(branch, propertyName, mapping, document);
    if (tags.length === 0) return branch;
    const ref = (branch as { $ref?: unknown }).$ref;
    const base = typeof ref === "string" && Object.keys(branch).length === 1 ? { $ref: ref } : { allOf: [branch] };
    return {
      ...base,
      required: [propertyName],
      properties: { [propertyName]: tags.length === 1 ? { const: tags[0] } : { enum: tags } },
    };
  });
}

/**
 * Whether every object branch of `oneOf` (through a component `$ref`)
 * requires `propertyName` and gives it a `const` or an `enum`, as ajv's
 * discriminator needs. A boolean branch counts as tagged: ajv reports it
 * (error[unsupported-schema], CONVENTIONS.md).
 */
function everyObjectBranchTagged(
  oneOf: unknown,
  propertyName: string,
  schemas: Readonly<Record<string, SchemaObject>>,
): boolean {
  if (!Array.isArray(oneOf)) return true;
  return oneOf.every(
    (branch: unknown) => branch === null || typeof branch !== "object" || isTagged(branch, propertyName, schemas),
  );
}

/** Whether ajv's discriminator finds the tag of `branch`: required, with a `const` or an `enum`, in the branch (a lone `$ref`: its target). */
function isTagged(branch: object, propertyName: string, schemas: Readonly<Record<string, SchemaObject>>): boolean {
  const ref = (branch as { $ref?: unknown }).$ref;
  const lone = typeof ref === "string" && ref.startsWith(COMPONENT_REF) && Object.keys(branch).length === 1;
  const target = (lone ? schemas[(ref as string).slice(COMPONENT_REF.length)] : branch) as
    | Record<string, unknown>
    | undefined;
  if (target === undefined || typeof target !== "object") return true;
  const required = Array.isArray(target["required"]) && target["required"].includes(propertyName);
  const tag = (target["properties"] as Record<string, { const?: unknown; enum?: unknown }> | undefined)?.[propertyName];
  return required && tag !== undefined && (tag.const !== undefined || Array.isArray(tag.enum));
}

/** Calls `f` on every subschema object (depth first), skipping data-valued keywords. */
export function visit(value: unknown, at: string, f: (node: Record<string, unknown>, at: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      visit(item, `${at}/${i}`, f);
    });
    return;
  }
  if (value === null || typeof value !== "object") return;
  const node = value as Record<string, unknown>;
  f(node, at);
  for (const key of Object.keys(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const child = node[key];
    if (NAME_MAPS.has(key) && child !== null && typeof child === "object" && !Array.isArray(child)) {
      // Its keys are names (a property `x-request-id`, one named `discriminator`), not keywords: only its values are schemas.
      for (const name of Object.keys(child))
        visit((child as Record<string, unknown>)[name], `${at}/${key}/${escapePointerSegment(name)}`, f);
    } else visit(child, `${at}/${key}`, f);
  }
}
