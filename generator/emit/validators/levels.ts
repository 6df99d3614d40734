/**
 * The three validation levels, each one ajv instance per run of the
 * emitters (`Levels`, handed to them in their context) with that level's
 * components compiled (in sorted order, so ajv's numbering
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
import { componentNames, type ComponentNames } from "../component-names.js";
import type { SchemaContent } from "../../model.js";
import type { SchemaObject } from "openapi3-ts/oas31";
import { addComponents, compileComponent, createValidatorAjv, NOT_RUN_BODY, validatorAjvOptions } from "./ajv.js";
import { outsideRefTargets, prepareComponents } from "./prepare.js";
import { receiveComponents, receiveSchema } from "./receive-level.js";
import { reachableComponents } from "./reachable-components.js";
import { receivedComponents } from "./received-components.js";
import { requestBodyComponents } from "./request-bodies.js";
import { SHARED_DEFS, shareRepeatedSubschemas } from "./shared-subschemas.js";
import { fixturesOptIn } from "../opt-in.js";

export type LevelName = "strict" | "all-errors" | "receive";

/** Which components get a validator at `level`, sorted. */
export function levelComponents(model: SchemaContent, level: LevelName): readonly string[] {
  if (level === "all-errors") return requestBodyComponents(model.document);
  if (level === "receive") return receivedComponents(model.document);
  return Object.keys(model.schemas).sort();
}

/**
 * One run's validation levels for one document: the ajv instance of each
 * level asked for, and the components as ajv compiles them. `generate`
 * (../index.ts) makes one per run and hands it to every emitter in their
 * context (`context.levels`), so the validators and fixtures emitters
 * share it; a caller outside a run makes its own with `createLevels`.
 */
export interface Levels {
  readonly model: SchemaContent;
  /** The components' names in generated code: the level modules export their validators by them. */
  readonly names: ComponentNames;
  /** The ajv instance of `level`, its validators compiled (made on the first ask). */
  ajv(level: LevelName): Ajv2020;
  /**
   * `prepareComponents` of the components (at the receive level: of their
   * receive level, `receiveScope`), made on the first ask: the strict and
   * all-errors instances share one copy.
   */
  prepared(level: "strict" | "receive"): Record<string, SchemaObject>;
}

/** What `createLevels` is told of its use. */
export interface LevelsOptions {
  /**
   * Whether the compiled functions will run (the fixture cases' judges, a
   * test's live validator), default true. `false`: they are only printed
   * (the validators emitter), and ajv does not make live functions of
   * their code (./ajv.ts `NOT_RUN_BODY`); the printed code is the same.
   */
  readonly run?: boolean;
}

/** An empty cache of `model`'s levels: each is made when first asked. `names` are the run's (`context.names`) where it has them. */
export function createLevels(
  model: SchemaContent,
  names: ComponentNames = componentNames(model),
  { run = true }: LevelsOptions = {},
): Levels {
  const instances = new Map<LevelName, Ajv2020>();
  const prepared = new Map<"strict" | "receive", Record<string, SchemaObject>>();
  const given = new Map<"strict" | "receive", AjvDocument>();
  const levels: Levels = {
    model,
    names,
    ajv(level) {
      let ajv = instances.get(level);
      if (ajv === undefined) {
        const schemaLevel = level === "receive" ? "receive" : "strict";
        let document = given.get(schemaLevel);
        if (document === undefined) {
          document = ajvDocument(model, schemaLevel, levels.prepared(schemaLevel));
          given.set(schemaLevel, document);
        }
        ajv = levelAjv(model, level, document, run);
        instances.set(level, ajv);
      }
      return ajv;
    },
    prepared(level) {
      let components = prepared.get(level);
      if (components === undefined) {
        components = prepareComponents(
          level === "receive"
            ? (receiveComponents(model.schemas, receiveScope(model)) as Record<string, SchemaObject>)
            : model.schemas,
        );
        prepared.set(level, components);
      }
      return components;
    },
  };
  return levels;
}

/**
 * The components whose receive level is made: those the received ones
 * reach (./reachable-components.ts), the only ones its validators compile;
 * every one where the fixture suite judges receive cases of any component
 * (and where what is reached cannot be told by pointers).
 */
function receiveScope(model: SchemaContent): readonly string[] | undefined {
  if (fixturesOptIn(model).skipped === undefined) return undefined;
  return reachableComponents(model.document, model.schemas, levelComponents(model, "receive"));
}

/** What an ajv instance is given: the components as it compiles them, and the schemas they read outside `components.schemas`. */
interface AjvDocument {
  readonly components: Record<string, SchemaObject>;
  readonly outside: Record<string, unknown>;
}

/**
 * `components` (prepared at `level`) and what they read elsewhere in the
 * document, each repeated large subschema moved to one shared place
 * (./shared-subschemas.ts); the strict and all-errors instances share it.
 */
function ajvDocument(
  model: SchemaContent,
  level: "strict" | "receive",
  components: Record<string, SchemaObject>,
): AjvDocument {
  const derive =
    level === "receive"
      ? (schema: SchemaObject, pointer: string) => receiveSchema(schema, pointer) as SchemaObject
      : undefined;
  const outside = outsideRefTargets(model.document, components, model.schemas, derive);
  // The fixture cases judge subschemas by their pointer into the components as written: there, nothing moves.
  // (Nor where the document's own `$defs` is read: no OpenAPI document has one, but `$ref`s to it would break.)
  if (fixturesOptIn(model).skipped === undefined || SHARED_DEFS in outside) return { components, outside };
  const { components: compiled, shared } = shareRepeatedSubschemas(components, outside);
  return {
    components: compiled,
    outside: Object.keys(shared).length === 0 ? outside : { ...outside, [SHARED_DEFS]: shared },
  };
}

/** A new ajv instance of `level` for `model`, with `document` added and its validators compiled (as live functions if they `run`). */
function levelAjv(model: SchemaContent, level: LevelName, document: AjvDocument, run: boolean): Ajv2020 {
  // The loader checked every component against the 2020-12 meta-schema (load/validate-schemas.ts);
  // compiling that meta-schema again per instance cost a tenth of gen. Strict mode still refuses what it refuses.
  const ajv = createValidatorAjv({
    validateSchema: false,
    ...(level === "all-errors" && { allErrors: true }),
    ...(!run && { code: { ...validatorAjvOptions.code, process: () => NOT_RUN_BODY } }),
  });
  addComponents(ajv, document.components, { prepare: false, outside: document.outside });
  compileAll(ajv, levelComponents(model, level), level);
  return ajv;
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
