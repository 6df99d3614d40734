/**
 * OpenAPI 3.0's `nullable: true`, which documents written for 3.0 carry into
 * 3.1: not a JSON Schema 2020-12 keyword, so a 3.1 reader would ignore it,
 * but what its author meant is plain: `null` is a value too. The loader
 * reads it that way, as openapi-typescript does, in place before the model
 * is built, so every artefact agrees: `type: T` becomes `type: [T, "null"]`
 * (and an `enum` gains `null`). The keyword stays, an annotation, and `gen`
 * warns at its first use with the 3.1 spelling (emit/diagnostics.ts). As in
 * 3.0, it means nothing without `type` (`$ref` with `nullable` included):
 * such a use is left as it is, and the warning says so.
 */
import type { BundledDocument } from "./bundle.js";
import { formatPointer } from "./json-pointer.js";
import { findKeyword } from "./refs.js";

export const NULLABLE = "nullable";

/** Each schema (by JSON pointer) with `nullable: true`, and whether it had a `type` to add `null` to. */
export interface NullableUse {
  readonly pointer: string;
  readonly typed: boolean;
}

/** Where `root` has `nullable: true`, in document order (instance data such as examples is not searched). */
export function nullableUses(root: unknown): NullableUse[] {
  return findKeyword(root, NULLABLE)
    .filter(({ holder }) => holder[NULLABLE] === true)
    .map(({ path, holder }) => ({ pointer: formatPointer([...path, NULLABLE]), typed: holder["type"] !== undefined }));
}

/** Adds `null` to the `type` (and `enum`) of every schema with `nullable: true` and a `type`. */
export function readNullable(bundled: BundledDocument): void {
  for (const { holder } of findKeyword(bundled.data, NULLABLE)) {
    if (holder[NULLABLE] !== true) continue;
    const type = holder["type"];
    if (typeof type === "string") {
      if (type !== "null") holder["type"] = [type, "null"];
    } else if (Array.isArray(type)) {
      if (!type.includes("null")) holder["type"] = [...type, "null"];
    } else continue;
    const values = holder["enum"];
    if (Array.isArray(values) && !values.includes(null)) holder["enum"] = [...values, null];
  }
}
