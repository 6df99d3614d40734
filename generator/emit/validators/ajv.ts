/**
 * The one ajv configuration the validators are generated with. Tests and the
 * bench build live ajv instances from here too, so "live ajv" and "the
 * generated code" are compared under the same options and keywords.
 */
import { Ajv2020, type Options } from "ajv/dist/2020.js";
import type { SchemaObject } from "openapi3-ts/oas31";
import { registerVendorKeywords } from "../../keywords/index.js";
import { escapePointerSegment } from "../../load/json-pointer.js";
import { useFastCodegenNames } from "./codegen-names.js";
import { useJsonEqualInAjv } from "./json-equal.js";
import { ownKeyEvaluation } from "./own-keys.js";
import { prepareComponents } from "./prepare.js";
import { receiveComponents } from "./receive-level.js";
import { rememberingUriResolver } from "./uri-resolver.js";

/** `$id` of the schema that holds `components.schemas`; never fetched. */
export const DOCUMENT_ID = "https://mantyx.invalid/wire-types/openapi.json";

export const validatorAjvOptions: Readonly<Options> = {
  // OpenAPI discriminators compile to a switch on the tag: one branch is
  // checked, and a wrong variant yields one error from that branch.
  discriminator: true,
  // Stop at the first failure of each branch: no error collection on the
  // success path and no exploring of every oneOf branch after one failed.
  // This is what makes the validators fast; `errors` holds that one issue.
  allErrors: false,
  strict: true,
  // OpenAPI unions put `required` beside `oneOf` (ToolResultRequest: one of
  // `result` / `error`), with the properties defined in the other keyword.
  strictRequired: false,
  // ajv's lints for schema authors, not rules of the dialect, which valid
  // documents written elsewhere break: `prefixItems` without `minItems` (a
  // tuple whose last items may be missing), a keyword that is ignored where
  // it stands (`then` without `if`, `maxContains` without `contains`), a
  // property a pattern also matches. Unknown keywords never reach ajv (the
  // loader refuses misspellings; ./annotations.ts drops the rest). This
  // repository's own schema still passes every lint
  // (test/validators/strict-lints.test.ts).
  strictTuples: false,
  strictSchema: false,
  allowMatchingProperties: true,
  // OpenAPI unions (`discriminator` + `oneOf`, `not: { anyOf }`) state
  // `type: object` in their branches; strictTypes wants it repeated on the
  // union. Unknown keywords (strictSchema) and bad numbers stay errors.
  strictTypes: false,
  // Formats are annotations in this project (CONVENTIONS.md).
  validateFormats: false,
  unicodeRegExp: true,
  // A property check must see the data's own keys only: without this,
  // `data.toString !== undefined` holds for every object (inherited from
  // Object.prototype), so an optional `toString: {type: string}` rejects `{}`,
  // and `required: [constructor]` never fails. Key loops become
  // `Object.keys` instead of `for in`.
  ownProperties: true,
  // Every `$ref` is a call of the referenced schema's function, never a
  // copy of its code: the validators of a level share those functions
  // (../validators.ts), and a component referenced twenty times is compiled
  // and shipped once. ajv's default inlines each ref without refs of its own.
  inlineRefs: false,
  // Live ajv's code gets the same own-key rewrite as the standalone modules
  // (./own-keys.ts), so the two judge `constructor` & co. alike.
  code: { source: true, esm: true, lines: false, optimize: true, process: ownKeyEvaluation },
  // fast-uri, its answers remembered (./uri-resolver.ts).
  uriResolver: rememberingUriResolver,
};

/**
 * What ajv makes each compiled function of, in an instance whose functions
 * are printed and never run (`createLevels`' `run: false`, ./levels.ts):
 * ajv turns every compiled text into a live function (`new Function`), a
 * parse of all the code it wrote (GitHub's strict level: 10 MB, about a
 * fifth of its compile time), where printing reads only the text it keeps
 * beside (`code.source`). The function it gets instead says so if run.
 */
export const NOT_RUN_BODY = 'return function notRun() { throw new Error("this ajv instance only prints its code"); }';

/** A configured ajv 2020 instance with the vendor keywords (no schemas). */
export function createValidatorAjv(options: Options = {}): Ajv2020 {
  useJsonEqualInAjv();
  useFastCodegenNames();
  const ajv = new Ajv2020({ ...validatorAjvOptions, ...options });
  // Without a meta-schema check (`validateSchema: false`), the loader's check of the vendor keywords' values stands for theirs too.
  registerVendorKeywords(ajv, { valuesChecked: options.validateSchema === false });
  // The container keywords of the document schema below: `$ref`s such as
  // `#/components/schemas/Name` (or `#/paths/...`, a schema a component reads there) resolve by JSON pointer through them.
  ajv.addKeyword({ keyword: "components", schemaType: "object" });
  for (const keyword of ["paths", "webhooks"]) ajv.addKeyword({ keyword, schemaType: "object" });
  return ajv;
}

/**
 * Adds the components as one schema, `{ $id, components: { schemas } }`, so
 * the document's own `$ref`s resolve unchanged. `prepare: false` adds them
 * as given (for baselines that strip keywords themselves). `level:
 * "receive"` adds their receive level (./receive-level.ts) instead.
 */
export function addComponents(
  ajv: Ajv2020,
  schemas: Readonly<Record<string, SchemaObject>>,
  {
    prepare = true,
    level = "strict",
    outside = {},
  }: { prepare?: boolean; level?: "strict" | "receive"; outside?: Readonly<Record<string, unknown>> } = {},
): void {
  const leveled = level === "receive" ? (receiveComponents(schemas) as Record<string, SchemaObject>) : schemas;
  const prepared = prepare ? prepareComponents(leveled) : leveled;
  // `outside`: the schemas the components' `$ref`s read elsewhere in the document, at their own paths (prepare.ts `outsideRefTargets`).
  const components = (outside.components ?? {}) as Record<string, unknown>;
  ajv.addSchema({ $id: DOCUMENT_ID, ...outside, components: { ...components, schemas: prepared } });
  // The schemas from outside (a shared subschema among them) can hold an `unevaluated*` keyword too.
  trackEvaluatedOnlyWhenUsed(ajv, { prepared, outside } as Record<string, SchemaObject>);
}

/** Switches the evaluated-property records off (below) for an instance whose `schemas` use no `unevaluated*` keyword. */
export function trackEvaluatedOnlyWhenUsed(ajv: Ajv2020, schemas: Readonly<Record<string, SchemaObject>>): void {
  if (!usesUnevaluated(schemas)) withoutEvaluatedTracking(ajv);
}

/**
 * Ajv2020 forces its `unevaluated` option on: every compiled function keeps
 * a record of the properties and items it evaluated, and every `allOf`,
 * `oneOf` and `$ref` merges those records, for `unevaluatedProperties` and
 * `unevaluatedItems` to read. Components that use neither make all of it
 * dead code (a fifth of a validator, and of its compile time), so it is
 * switched off for them; the option is the one ajv reads when it compiles.
 */
function withoutEvaluatedTracking(ajv: Ajv2020): void {
  (ajv.opts as { unevaluated?: boolean }).unevaluated = false;
}

/** Whether any schema uses `unevaluatedProperties` or `unevaluatedItems` (at any depth, as a key). */
function usesUnevaluated(schemas: Readonly<Record<string, SchemaObject>>): boolean {
  const seen = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(seen);
    if (value === null || typeof value !== "object") return false;
    return Object.entries(value).some(
      ([key, sub]) => key === "unevaluatedProperties" || key === "unevaluatedItems" || seen(sub),
    );
  };
  return seen(schemas);
}

/** What ajv keeps per compiled schema (its `SchemaEnv`), as far as `compileComponent` reads it. */
interface CompiledEnv {
  readonly refs: Record<string, unknown>;
}

/**
 * The validator of component `name`, compiled as the very function the
 * document's own `$ref`s to it call. ajv compiles a schema asked for by
 * key (`getSchema`) apart from the same schema reached by a `$ref` (which
 * it caches on the document), so a component that is both exported and
 * referenced would be compiled, and shipped, twice. Both caches are ajv's
 * public fields (`ajv.refs`, `SchemaEnv.refs`); a key ajv spells otherwise
 * only costs that sharing, never a verdict.
 */
export function compileComponent(ajv: Ajv2020, name: string): ReturnType<Ajv2020["getSchema"]> {
  const key = componentRef(name);
  const document = ajv.schemas[DOCUMENT_ID] as unknown as CompiledEnv | undefined;
  const refs = ajv.refs as Record<string, unknown>;
  const viaRef = document?.refs[key];
  if (viaRef !== undefined && refs[key] === undefined) refs[key] = viaRef;
  const validate = ajv.getSchema(key);
  if (document !== undefined && document.refs[key] === undefined && refs[key] !== undefined)
    document.refs[key] = refs[key];
  return validate;
}

/** The ajv key of component `name`. */
export function componentRef(name: string): string {
  return `${DOCUMENT_ID}#/components/schemas/${encodeURIComponent(escapePointerSegment(name))}`;
}
