/**
 * `x-pagination` on an operation (schema/CONVENTIONS.md, "Other vendor
 * annotations"): `{ cursorParam, nextCursor, items }` says how to walk a
 * list page by page — send the page's `nextCursor` value back as the query
 * parameter `cursorParam`, read the page's entries from `items`. Checked
 * here, so a client that iterates pages can rely on all three names: the
 * parameter is a declared query parameter of the operation, and both
 * properties are declared on the schema of its `200` JSON answer. A
 * mistake is `invalid-json-schema` at the annotation's line.
 */
import { SchemaLoadError, type SchemaProblem } from "../errors.js";
import type { BundledDocument } from "./bundle.js";
import { getAtPointer, isPlainObject, parseRefFragment } from "./json-pointer.js";
import { pathItemsOf } from "./path-items.js";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const FIELDS = ["cursorParam", "nextCursor", "items"] as const;

export function validatePagination(bundled: BundledDocument): void {
  const document = bundled.data as Record<string, unknown>;
  const problems: SchemaProblem[] = [];
  const resolve = (v: unknown): unknown => {
    for (let i = 0; i < 16 && isPlainObject(v) && typeof v.$ref === "string"; i++) {
      const segments = parseRefFragment(v.$ref);
      v = segments === undefined ? undefined : getAtPointer(document, segments);
    }
    return v;
  };
  for (const { path, item, pointerOf } of pathItemsOf(document)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!isPlainObject(op) || op["x-pagination"] === undefined) continue;
      const at = [...pointerOf(method), "x-pagination"];
      const value = op["x-pagination"];
      const fail = (message: string, pointer: string[] = at): void =>
        void problems.push({ ...bundled.where(pointer), message });
      if (
        !isPlainObject(value) ||
        Object.keys(value).some((k) => !(FIELDS as readonly string[]).includes(k)) ||
        FIELDS.some((k) => typeof value[k] !== "string" || value[k] === "")
      ) {
        fail("x-pagination must be { cursorParam, nextCursor, items }, three non-empty strings and nothing else.");
        continue;
      }
      const params = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(op.parameters) ? op.parameters : []),
      ].map(resolve);
      if (!params.some((p) => isPlainObject(p) && p.in === "query" && p.name === value.cursorParam)) {
        fail(
          `x-pagination.cursorParam ${JSON.stringify(value.cursorParam)} is not a query parameter of ${method.toUpperCase()} ${path}.`,
          [...at, "cursorParam"],
        );
      }
      const ok = resolve(isPlainObject(op.responses) ? op.responses["200"] : undefined);
      const media = isPlainObject(ok) && isPlainObject(ok.content) ? ok.content["application/json"] : undefined;
      const schema = resolve(isPlainObject(media) ? media.schema : undefined);
      const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : undefined;
      for (const field of ["nextCursor", "items"] as const) {
        if (properties === undefined || !(String(value[field]) in properties)) {
          fail(
            `x-pagination.${field} ${JSON.stringify(value[field])} is not a property of the 200 application/json answer of ${method.toUpperCase()} ${path}.`,
            [...at, field],
          );
        }
      }
    }
  }
  if (problems.length > 0) {
    throw new SchemaLoadError(
      "invalid-json-schema",
      problems as [SchemaProblem, ...SchemaProblem[]],
      "Name a declared query parameter and two properties of the 200 answer's schema (`mantyx-wire keywords`, x-pagination).",
    );
  }
}
