/**
 * How a `text/event-stream` media type describes its events, as the mock
 * reads it (the client's reading must be the same rule: docs/mock-any-document.md):
 *
 * 1. `itemSchema` (OpenAPI 3.2): the event object `{ event, data, id, retry }`.
 * 2. `x-item-schema` (this project's 3.1 keyword): each event's `data`, JSON.
 * 3. `schema` (3.0 and 3.1 documents), by its shape:
 *    - none, or annotations only (`description`, `x-…`, …): text events;
 *    - a string (`type: string` without `contentMediaType`): text events;
 *    - event-shaped: an object, or a union of objects, whose properties are
 *      all among `id`, `event`, `data` and `retry`, with `data` among them:
 *      read as `itemSchema`;
 *    - payload-shaped: anything else is the schema of each event's `data`,
 *      parsed as JSON.
 *
 * In an event object, `data` is text when typed as a string (`null`
 * aside) without a JSON `contentMediaType`, else JSON (a string with a
 * JSON `contentMediaType`: its `contentSchema` describes the value).
 *
 * The `schema` case is the generated client's own function
 * (`sseSchemaReading`, generator/emit/client/shapes.ts; docs/event-streams.md),
 * so the mock and the client read one rule.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { isPlainObject } from "../../load/json-pointer.js";
import { sseSchemaReading } from "../../emit/client/shapes.js";
import { deref, isJsonMediaType } from "../../emit/operations.js";

export type SseItemReading =
  | { readonly kind: "event"; readonly schema: unknown; readonly source: "itemSchema" | "schema" }
  | { readonly kind: "payload"; readonly schema: unknown; readonly source: "x-item-schema" | "schema" }
  | { readonly kind: "text"; readonly source: "schema" | "none" };

export function sseItemReading(doc: OpenAPIObject, media: Record<string, unknown>): SseItemReading {
  if (media["itemSchema"] !== undefined) return { kind: "event", schema: media["itemSchema"], source: "itemSchema" };
  if (media["x-item-schema"] !== undefined)
    return { kind: "payload", schema: media["x-item-schema"], source: "x-item-schema" };
  // A 3.0/3.1 `schema`: the generated client's own reading (generator/emit/client/shapes.ts), so the mock streams what the client expects.
  const schema = media["schema"];
  const { reading } = sseSchemaReading(doc, schema);
  if (reading === "plain") return { kind: "text", source: schema === undefined ? "none" : "schema" };
  return reading === "event"
    ? { kind: "event", schema, source: "schema" }
    : { kind: "payload", schema, source: "schema" };
}

/** The branches of a union (`oneOf`/`anyOf` of a schema without its own `properties`), or the schema alone. */
export function unionBranches(doc: OpenAPIObject, schema: unknown): unknown[] {
  const resolved = resolve(doc, schema);
  if (!isPlainObject(resolved) || resolved["properties"] !== undefined) return [schema];
  const branches = [resolved["oneOf"], resolved["anyOf"]].find(Array.isArray) as unknown[] | undefined;
  return branches === undefined || branches.length === 0 ? [schema] : branches;
}

/** Whether an event object's `data` is JSON (it is text when typed as a string, `null` aside, without a JSON `contentMediaType`), and the JSON value's schema. */
export function eventDataOf(doc: OpenAPIObject, eventSchema: unknown): { json: boolean; schema: unknown } {
  const resolved = resolve(doc, eventSchema);
  const props = isPlainObject(resolved) && isPlainObject(resolved["properties"]) ? resolved["properties"] : {};
  const data = resolve(doc, props["data"]);
  if (!isPlainObject(data)) return { json: true, schema: data ?? true };
  if (typeof data["contentMediaType"] === "string")
    return isJsonMediaType(data["contentMediaType"])
      ? { json: true, schema: data["contentSchema"] ?? true }
      : { json: false, schema: data };
  const types =
    typeof data["type"] === "string"
      ? [data["type"]]
      : Array.isArray(data["type"])
        ? (data["type"] as unknown[]).filter((t) => t !== "null")
        : undefined;
  const text = types !== undefined && types.length > 0 && types.every((t) => t === "string");
  return { json: !text, schema: data };
}

function resolve(doc: OpenAPIObject, schema: unknown): unknown {
  try {
    return deref<unknown>(doc, schema as never);
  } catch {
    return undefined;
  }
}
