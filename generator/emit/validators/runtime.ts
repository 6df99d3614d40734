/**
 * The helpers ajv's standalone output `require`s from `ajv/dist/runtime/*`
 * are the runtime's own code (runtime/validation/helpers.ts), which
 * generated validators import through the codegen contract.
 *
 * `RUNTIME_EXPORTS` maps each `require("ajv/dist/runtime/<module>").<export>`
 * ajv can emit for this project's options to the contract export that
 * replaces it. A require not in the table fails generation (see
 * ./level-module.ts), so a new ajv dependency is noticed, not shipped.
 */

export const RUNTIME_EXPORTS: Readonly<Record<string, string>> = {
  // minLength / maxLength count code points, not UTF-16 units.
  "ajv/dist/runtime/ucs2length.default": "ucs2length",
  // enum / const with object or array values, uniqueItems.
  "ajv/dist/runtime/equal.default": "deepEqual",
  // The receive level's report of a documented rule it reads anyway (generator/keywords/x-tolerated.ts).
  "@mantyx/wire-types/runtime/validation.tolerated": "tolerated",
};
