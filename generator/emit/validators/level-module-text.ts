/**
 * The three levels' shared modules as files: which module each level's
 * functions go to, under which export names, and the module's printed text
 * (./level-module.ts, ./format.ts). The validators emitter writes them; the
 * all-errors and receive levels' are printed on the level thread, when it runs
 * (./level-thread.ts, ./level-thread-worker.ts) by this same function.
 */
import { componentRef } from "./ajv.js";
import { formatModuleSync } from "./format.js";
import { levelModuleSource } from "./level-module.js";
import { levelComponents, type LevelName, type Levels } from "./levels.js";
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
  return formatModuleSync(levelModuleUnformatted(levels, level, runtime));
}

/** The same text before formatting (./format.ts): what `formatModuleSync` makes `levelModuleText` of, here or on the level thread. */
export function levelModuleUnformatted(levels: Levels, level: LevelName, runtime: string): string {
  const { exportName } = LEVEL_MODULES[level];
  const { names } = levels;
  const exports = new Map(
    levelComponents(levels.model, level).map((name) => [exportName(names, name), componentRef(name)]),
  );
  return levelModuleSource(levels.ajv(level), exports, runtime);
}
