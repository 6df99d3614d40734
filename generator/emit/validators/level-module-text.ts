/**
 * The three levels' shared modules as files: which module each level's
 * functions go to, under which export names, and the module's printed text
 * (./level-module.ts, ./format.ts). The validators emitter writes them; the
 * all-errors and receive levels' are printed on the level thread, when it runs
 * (./level-thread.ts, ./level-thread-worker.ts) by this same function.
 */
import { componentRef } from "./ajv.js";
import { formatModuleSync } from "./format.js";
import { levelModuleStatements } from "./level-module.js";
import { levelComponents, type LevelName, type Levels } from "./levels.js";
import { assertPortable } from "./portability.js";
import type { ComponentNames } from "../component-names.js";

/** Each level's shared module (relative to validators/) and the export name of a component's validator there. */
export const LEVEL_MODULES: Readonly<
  Record<LevelName, { readonly module: string; readonly exportName: (names: ComponentNames, name: string) => string }>
> = {
  strict: { module: "internal/strict.js", exportName: (names, name) => names.validatorName(name) },
  "all-errors": { module: "internal/all-errors.js", exportName: (names, name) => names.allErrorsName(name) },
  receive: { module: "internal/receive.js", exportName: (names, name) => names.receiveName(name) },
};

/** The text of `level`'s shared module, formatted, without header; `runtime` is the specifier it imports the runtime by. */
export function levelModuleText(levels: Levels, level: LevelName, runtime: string): string {
  return printLevelModule(level, levelModuleUnformatted(levels, level, runtime), runtime);
}

/**
 * `source`, `level`'s module or a run of its statements (`chunks`),
 * formatted (./format.ts) and checked portable (./portability.ts): each
 * module is checked by the thread that prints it, as it prints it.
 */
export function printLevelModule(level: LevelName, source: string, runtime: string): string {
  if (source === "") return "";
  const text = formatModuleSync(source);
  assertPortable(`validators/${LEVEL_MODULES[level].module}`, text, runtime);
  return text;
}

/** The same text before formatting (./format.ts): what `formatModuleSync` makes `levelModuleText` of, here or on the level thread. */
export function levelModuleUnformatted(levels: Levels, level: LevelName, runtime: string): string {
  return `${levelModuleStatementsOf(levels, level, runtime).join("\n")}\n`;
}

/** That text's top-level statements (./level-module.ts `levelModuleStatements`). */
export function levelModuleStatementsOf(levels: Levels, level: LevelName, runtime: string): string[] {
  const { exportName } = LEVEL_MODULES[level];
  const { names } = levels;
  const exports = new Map(
    levelComponents(levels.model, level).map((name) => [exportName(names, name), componentRef(name)]),
  );
  return levelModuleStatements(levels.ajv(level), exports, runtime);
}

/**
 * `statements` as at most `count` texts, in order, each of about as many
 * characters (a statement is never cut: a long one makes fewer), whose
 * formatted texts (./format.ts) joined are the formatted whole: a
 * statement leaves no block open, so the printer starts each text as it
 * would there. The level thread and this one format them at once.
 */
export function chunks(statements: readonly string[], count: number): string[] {
  const total = statements.reduce((sum, statement) => sum + statement.length + 1, 0);
  const texts: string[] = [];
  let start = 0;
  let length = 0;
  for (let i = 0; i < statements.length; i++) {
    length += statements[i]!.length + 1;
    // Cut where the texts so far reach their share of the characters (the last share ends with the last statement).
    if (i === statements.length - 1 || length >= (total * (texts.length + 1)) / count) {
      texts.push(`${statements.slice(start, i + 1).join("\n")}\n`);
      start = i + 1;
    }
  }
  return texts;
}
