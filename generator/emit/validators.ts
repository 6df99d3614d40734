/**
 * Emitter "validators": ahead-of-time validators for every component schema,
 * in generated/validators/. ajv compiles at generation time only; what is
 * emitted is plain JavaScript that imports nothing but its own folder and
 * the runtime's codegen contract.
 *
 * Layout (tree-shakable; `npx tsx bench/validators.ts` prints the sizes):
 *   validators/<kebab-name>.js + .d.ts   one module per component, exporting
 *                                        `validate<Name>`, the strict level
 *   validators/<kebab-name>.all-errors.js + .d.ts
 *                                        for each request-body component
 *                                        only: `validate<Name>AllErrors`, the
 *                                        same checks built with ajv
 *                                        `allErrors`, so a client can list
 *                                        every problem of a rejected body
 *   validators/<kebab-name>.receive.js + .d.ts
 *                                        for each component a client reads
 *                                        (2xx JSON response bodies, the SSE
 *                                        item schema) only:
 *                                        `validate<Name>Receive`, the
 *                                        receive level of the same schema
 *                                        (./validators/receive-level.ts):
 *                                        the shape the type promises, not
 *                                        the strict-only rules
 *   validators/internal/<level>.js       not public: the compiled functions
 *                                        of one level (strict, all-errors,
 *                                        receive), each once
 *                                        (./validators/level-module.ts)
 *   validators/index.js + .d.ts          explicit named re-exports
 *
 * Why shared functions: each level is compiled by one ajv instance with
 * `inlineRefs: false`, so a component is one function, called wherever it
 * is referenced, and the public module of a component is two lines over
 * its level's module. Modules that each carried their own copy of every
 * function they reached weighed 208 kB min+gzip together (ToolRef's
 * functions 27 times over); a bundler keeps only the functions a program
 * reaches either way. Each public validator keeps `errors` of its own
 * (`publicValidator` of the runtime contract), because its function also
 * runs inside the validators that reference it.
 */
import { EmitError } from "../errors.js";
import { formatPointer } from "../load/json-pointer.js";
import type { EmitContext, EmittedFile, Emitter, LoadedSchema } from "../model.js";
import { componentDeclarations, indexDeclarations, indexModule } from "./validators/declarations.js";
import { header } from "../header.js";
import {
  LEVEL_MODULES,
  levelModuleText,
  levelModuleUnformatted,
  printLevelModule,
} from "./validators/level-module-text.js";
import type { ComponentNames } from "./component-names.js";
import { createLevels, levelComponents, type LevelName, type Levels } from "./validators/levels.js";
import { LEVELS } from "./validators/level-thread.js";
import { assertPortable } from "./validators/portability.js";
import { runtimeImport } from "./runtime-import.js";

const DIR = "validators";

export const validatorsEmitter: Emitter = {
  name: "validators",
  emit: async (model, context) => ({ files: await emitValidatorsInParallel(model, context), diagnostics: [] }),
};

/** One validation level: which components it builds, under which names. */
interface Level {
  readonly components: readonly string[];
  readonly file: (name: string) => string;
  readonly declarations: (name: string, runtime: string) => string;
  readonly level: LevelName;
}

/** The validator files: the public modules, their declarations, the three shared level modules and index; `levels` is the run's (`context.levels`), or a cache of its own. */
export function emitValidators(model: LoadedSchema, levels: Levels = createLevels(model)): EmittedFile[] {
  return validatorFiles(model, levels.names, (level) => levelModuleText(levels, level, levelRuntime(model, level)));
}

/**
 * `emitValidators`, with some levels compiled and printed on the level
 * thread (./validators/level-thread.ts) while this one does the others; on
 * this thread where there is none. Either way the first level (in the order
 * strict, all-errors, receive) that fails gives the error, as on one thread.
 */
async function emitValidatorsInParallel(model: LoadedSchema, context: EmitContext): Promise<EmittedFile[]> {
  const thread = context.levelThread();
  if (thread === undefined) return emitValidators(model, context.levels);
  checkFileNames(
    context.names,
    levelComponents(model, "strict"),
    levelComponents(model, "all-errors"),
    levelComponents(model, "receive"),
  );
  const here = LEVELS.filter((level) => !thread.levels.includes(level) && levelComponents(model, level).length > 0);
  // Where the worker formats (./validators/level-thread.ts `threadPlan`), it formats this thread's modules too
  // (the strict level's, where the fixture cases' verdicts need its functions here) while this thread builds the cases.
  const formatThere = thread.formats;
  const local = new Map<LevelName, { text: Promise<string> } | { error: unknown }>();
  for (const level of here) {
    try {
      const runtime = levelRuntime(model, level);
      const source = levelModuleUnformatted(context.levels, level, runtime);
      const text = formatThere
        ? thread.format(level, source, runtime)
        : Promise.resolve(printLevelModule(level, source, runtime));
      text.catch(() => undefined); // awaited below; a failure of the thread meanwhile is reported by the first await
      local.set(level, { text });
    } catch (error) {
      local.set(level, { error });
      break; // as on one thread: the levels after a failed one are not compiled
    }
  }
  const texts = new Map<LevelName, string | undefined>();
  for (const level of LEVELS) {
    const mine = local.get(level);
    if (thread.levels.includes(level)) texts.set(level, await thread.module(level));
    else if (mine === undefined) texts.set(level, undefined);
    else if ("error" in mine) throw mine.error;
    else texts.set(level, await mine.text);
  }
  return validatorFiles(model, context.names, (level) => texts.get(level)!);
}

/** The specifier `level`'s shared module imports the runtime by. */
function levelRuntime(model: LoadedSchema, level: LevelName): string {
  return runtimeImport(model, `${DIR}/${LEVEL_MODULES[level].module}`);
}

/** The validator files, named by `naming`, with each level's shared module text from `moduleText` (asked in the order strict, all-errors, receive). */
function validatorFiles(
  model: LoadedSchema,
  naming: ComponentNames,
  moduleText: (level: LevelName) => string,
): EmittedFile[] {
  const names = levelComponents(model, "strict");
  const bodies = levelComponents(model, "all-errors");
  const received = levelComponents(model, "receive");
  checkFileNames(naming, names, bodies, received);

  const levels: Level[] = [
    {
      components: names,
      file: naming.validatorFile,
      declarations: (name, runtime) => componentDeclarations(naming, name, { runtime }),
      level: "strict",
    },
    {
      components: bodies,
      file: naming.allErrorsFile,
      declarations: (name, runtime) => componentDeclarations(naming, name, { allErrors: true, runtime }),
      level: "all-errors",
    },
    {
      components: received,
      file: naming.receiveFile,
      declarations: (name, runtime) => componentDeclarations(naming, name, { receive: true, runtime }),
      level: "receive",
    },
  ];

  const top = header(model, "//");
  const runtime = runtimeImport(model, `${DIR}/index.js`);
  const files: EmittedFile[] = [];
  for (const level of levels) {
    if (level.components.length === 0) continue;
    const { module, exportName } = LEVEL_MODULES[level.level];
    files.push({
      path: `${DIR}/${module}`,
      contents: `${top}// Not public: import the validators from ../index.js or ../<name>.js.\n${moduleText(level.level)}`,
    });
    for (const name of level.components) {
      const base = `${DIR}/${level.file(name)}`;
      files.push({
        path: `${base}.js`,
        contents: top + publicModule(exportName(naming, name), `./${module}`, runtime),
      });
      files.push({ path: `${base}.d.ts`, contents: top + level.declarations(name, runtime) });
    }
  }
  files.push({ path: `${DIR}/index.js`, contents: top + indexModule(naming, names, bodies, received) });
  files.push({
    path: `${DIR}/index.d.ts`,
    contents: top + indexDeclarations(naming, names, bodies, runtime, received),
  });

  // The level modules were checked as they were printed (./validators/level-module-text.ts `printLevelModule`).
  const levelModules = new Set(Object.values(LEVEL_MODULES).map(({ module }) => `${DIR}/${module}`));
  for (const file of files) if (!levelModules.has(file.path)) assertPortable(file.path, file.contents, runtime);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A component's public module: its level's compiled function, with `errors` of its own. */
function publicModule(exportName: string, levelModule: string, runtime: string): string {
  return `import { publicValidator } from ${JSON.stringify(runtime)};
import { ${exportName} as compiled } from ${JSON.stringify(levelModule)};

export const ${exportName} = /* @__PURE__ */ publicValidator(compiled);
`;
}

/**
 * Every validator gets its own export and file name (component-names.ts
 * makes them so; checked here, as a bug would overwrite a file). File names
 * are compared case-insensitively: `ABTest` and `AbTest` (both `ab-test.js`)
 * would overwrite each other on macOS and Windows file systems.
 */
function checkFileNames(
  naming: ComponentNames,
  names: readonly string[],
  bodies: readonly string[],
  received: readonly string[],
): void {
  const { validatorName, allErrorsName, receiveName, validatorFile } = naming;
  const at = (name: string): string => formatPointer(["components", "schemas", name]);
  const collision = (message: string, first: string, second: string | undefined): EmitError =>
    new EmitError(
      "name-collision",
      "validators",
      message,
      'Rename one of the components (the naming rule: `mantyx-wire keywords`, "Names").',
      at(first),
      second === undefined ? [] : [at(second)],
    );
  const exports = new Map(names.map((name) => [validatorName(name), name]));
  for (const name of bodies) {
    const other = exports.get(allErrorsName(name));
    if (other !== undefined) {
      throw collision(
        `component ${JSON.stringify(name)}'s all-errors validator ${allErrorsName(name)} has the name of component ${JSON.stringify(other)}'s validator.`,
        name,
        other,
      );
    }
  }
  for (const name of received) {
    const other = exports.get(receiveName(name));
    if (other !== undefined) {
      throw collision(
        `component ${JSON.stringify(name)}'s receive-level validator ${receiveName(name)} has the name of component ${JSON.stringify(other)}'s validator.`,
        name,
        other,
      );
    }
  }
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = validatorFile(name);
    const other = seen.get(file.toLowerCase());
    if (other !== undefined) {
      throw collision(
        `components ${JSON.stringify(other)} and ${JSON.stringify(name)} would both be written to validators/${file}.js (file names are compared ignoring case).`,
        other,
        name,
      );
    }
    if (file === "index")
      throw collision(
        `component ${JSON.stringify(name)} would overwrite validators/${file}.js, a file of the generator's own.`,
        name,
        undefined,
      );
    seen.set(file.toLowerCase(), name);
  }
}
