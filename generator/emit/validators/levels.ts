/**
 * The three validation levels, each one ajv instance per loaded document
 * with that level's components compiled (in sorted order, so ajv's numbering
 * and the emitted code are deterministic whoever asks first):
 *
 * - `strict`: every component, first error (`validate<Name>`);
 * - `all-errors`: the request bodies, every error (`validate<Name>AllErrors`);
 * - `receive`: what a client reads, at the receive level (`validate<Name>Receive`).
 *
 * The validators emitter emits the code of these instances, and the fixtures
 * emitter judges its cases with the same compiled functions (strict for the
 * verdicts of the strict cases, all-errors where their error list is read,
 * receive for the receive cases): a component is compiled once per level per
 * `gen`, not once per emitter. Compiling more in an instance later (the
 * fixtures compile the subschemas they judge, and all-errors functions of
 * components that are not request bodies) never changes what was compiled
 * before.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import { EmitError } from "../../errors.js";
import type { LoadedSchema } from "../../model.js";
import type { SchemaObject } from "openapi3-ts/oas31";
import { addComponents, compileComponent, createValidatorAjv } from "./ajv.js";
import { outsideRefTargets, prepareComponents } from "./prepare.js";
import { receiveComponents, receiveSchema } from "./receive-level.js";
import { receivedComponents } from "./received-components.js";
import { requestBodyComponents } from "./request-bodies.js";

export type LevelName = "strict" | "all-errors" | "receive";

/** Which components get a validator at `level`, sorted. */
export function levelComponents(model: LoadedSchema, level: LevelName): readonly string[] {
  if (level === "all-errors") return requestBodyComponents(model.document);
  if (level === "receive") return receivedComponents(model.document);
  return Object.keys(model.schemas).sort();
}

/** Per document (the emitters of one `gen` share it), the instance of each level asked for. */
const instances = new WeakMap<object, Map<LevelName, Ajv2020>>();

/** The ajv instance of `level` for `model`, its validators compiled. */
export function levelAjv(model: LoadedSchema, level: LevelName): Ajv2020 {
  let byLevel = instances.get(model.document);
  if (byLevel === undefined) instances.set(model.document, (byLevel = new Map()));
  let ajv = byLevel.get(level);
  if (ajv === undefined) {
    // The loader checked every component against the 2020-12 meta-schema (load/validate-schemas.ts);
    // compiling that meta-schema again per instance cost a tenth of gen. Strict mode still refuses what it refuses.
    ajv = createValidatorAjv({ validateSchema: false, ...(level === "all-errors" && { allErrors: true }) });
    const schemaLevel = level === "receive" ? "receive" : "strict";
    const components = preparedComponents(model, schemaLevel);
    const derive = schemaLevel === "receive" ? (schema: SchemaObject, pointer: string) => receiveSchema(schema, pointer) as SchemaObject : undefined;
    addComponents(ajv, components, { prepare: false, outside: outsideRefTargets(model.document, components, model.schemas, derive) });
    compileAll(ajv, levelComponents(model, level), level);
    byLevel.set(level, ajv);
  }
  return ajv;
}

/** Per document, the components as ajv compiles them at each schema level: the strict and all-errors instances share one copy. */
const prepared = new WeakMap<object, Map<"strict" | "receive", Record<string, SchemaObject>>>();

/** `prepareComponents` of the components (at the receive level: of their receive level), made once per document. */
export function preparedComponents(model: LoadedSchema, level: "strict" | "receive"): Record<string, SchemaObject> {
  let byLevel = prepared.get(model.document);
  if (byLevel === undefined) prepared.set(model.document, (byLevel = new Map()));
  let components = byLevel.get(level);
  if (components === undefined) {
    components = prepareComponents(level === "receive" ? (receiveComponents(model.schemas) as Record<string, SchemaObject>) : model.schemas);
    byLevel.set(level, components);
  }
  return components;
}

function compileAll(ajv: Ajv2020, names: readonly string[], level: LevelName): void {
  for (const name of names) {
    try {
      compileComponent(ajv, name);
    } catch (e) {
      if (e instanceof EmitError) throw e; // the receive-level rule's own error
      // ajv (strict mode) refuses the schema, e.g. a `prefixItems` tuple without `minItems`, or a
      // discriminated `oneOf` branch (a `false` one too) without the tag: a schema problem, not a bug.
      // ajv's own path is relative to the component compiled, or to one it references.
      throw new EmitError(
        "unsupported-schema",
        "validators",
        `ajv cannot compile ${level === "receive" ? "the receive-level validator" : "a validator"} for #/components/schemas/${name} (or a schema it references): ${(e as Error).message}`,
        "Change the schema so ajv compiles it in strict mode (the message says what it refused); `mantyx-wire keywords` lists the vendor keywords.",
        `/components/schemas/${name}`,
      );
    }
  }
}
