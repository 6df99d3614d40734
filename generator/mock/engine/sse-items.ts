/**
 * How a `text/event-stream` media type describes its events, as the mock
 * reads it (the client's reading must be the same rule: docs/mock-any-document.md):
 *
 * 1. `itemSchema` (OpenAPI 3.2): the event object `{ event, data, id, retry }`.
 * 2. `x-item-schema` (this project's 3.1 keyword): each event's `data`, JSON.
 * 3. `schema` (3.0 and 3.1 documents), by its shape:
 *    - event-shaped: an object, or a union of objects, whose properties are
 *      all among `id`, `event`, `data` and `retry`, with `data` among them:
 *      read as `itemSchema`;
 *    - a plain string (`type: string`, no `enum`/`const`): the body is text,
 *      each event's data as sent;
 *    - payload-shaped: anything else is the schema of each event's `data`,
 *      parsed as JSON.
 * 4. No schema: events with text data.
 *
 * In an event-shaped schema, `data` is JSON when it is typed as an object
 * or array (or may be: no `type`), or a string with a JSON
 * `contentMediaType` (its `contentSchema` describes the value); a string
 * `data` is text.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { isPlainObject } from "../../load/json-pointer.js";
import { deref, isJsonMediaType } from "../../emit/operations.js";

export type SseItemReading =
  | { readonly kind: "event"; readonly schema: unknown; readonly source: "itemSchema" | "schema" }
  | { readonly kind: "payload"; readonly schema: unknown; readonly source: "x-item-schema" | "schema" }
  | { readonly kind: "text"; readonly source: "schema" | "none" };

const EVENT_FIELDS = new Set(["id", "event", "data", "retry"]);

export function sseItemReading(doc: OpenAPIObject, media: Record<string, unknown>): SseItemReading {
  if (media["itemSchema"] !== undefined) return { kind: "event", schema: media["itemSchema"], source: "itemSchema" };
  if (media["x-item-schema"] !== undefined) return { kind: "payload", schema: media["x-item-schema"], source: "x-item-schema" };
  const schema = media["schema"];
  if (schema === undefined || schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0)) return { kind: "text", source: "none" };
  if (isEventShaped(doc, schema)) return { kind: "event", schema, source: "schema" };
  const resolved = resolve(doc, schema);
  if (isPlainObject(resolved) && resolved["type"] === "string" && resolved["enum"] === undefined && resolved["const"] === undefined) return { kind: "text", source: "schema" };
  return { kind: "payload", schema, source: "schema" };
}

/** The branches of a union (`oneOf`/`anyOf`, each resolved), or the schema alone. */
export function unionBranches(doc: OpenAPIObject, schema: unknown): unknown[] {
  const resolved = resolve(doc, schema);
  if (!isPlainObject(resolved)) return [resolved];
  const branches = [resolved["oneOf"], resolved["anyOf"]].find((b) => Array.isArray(b) && b.length > 0) as unknown[] | undefined;
  return branches === undefined ? [schema] : branches;
}

/** Whether an event object's `data` schema says the data is JSON; its JSON value's schema. */
export function eventDataOf(doc: OpenAPIObject, eventSchema: unknown): { json: boolean; schema: unknown } {
  const resolved = resolve(doc, eventSchema);
  const props = isPlainObject(resolved) && isPlainObject(resolved["properties"]) ? resolved["properties"] : {};
  const data = resolve(doc, props["data"]);
  if (!isPlainObject(data)) return { json: data !== false, schema: data ?? true };
  if (typeof data["contentMediaType"] === "string" && isJsonMediaType(data["contentMediaType"])) return { json: true, schema: data["contentSchema"] ?? true };
  const types = typeof data["type"] === "string" ? [data["type"]] : Array.isArray(data["type"]) ? (data["type"] as unknown[]) : undefined;
  if (types === undefined) return { json: true, schema: data };
  return { json: types.some((t) => t !== "string"), schema: data };
}

function isEventShaped(doc: OpenAPIObject, schema: unknown, depth = 0): boolean {
  const resolved = resolve(doc, schema);
  if (!isPlainObject(resolved) || depth > 8) return false;
  const branches = [resolved["oneOf"], resolved["anyOf"]].find(Array.isArray) as unknown[] | undefined;
  if (branches !== undefined) return branches.length > 0 && branches.every((b) => isEventShaped(doc, b, depth + 1));
  const props = objectProperties(doc, resolved, depth);
  if (props === undefined || !props.has("data")) return false;
  return [...props].every((p) => EVENT_FIELDS.has(p));
}

/** The property names of an object schema (with `allOf` parts), or undefined when it is not one. */
function objectProperties(doc: OpenAPIObject, schema: Record<string, unknown>, depth: number): Set<string> | undefined {
  const out = new Set<string>();
  if (schema["type"] !== undefined && schema["type"] !== "object") return undefined;
  if (isPlainObject(schema["properties"])) for (const k of Object.keys(schema["properties"])) out.add(k);
  if (Array.isArray(schema["allOf"])) {
    for (const part of schema["allOf"]) {
      const r = resolve(doc, part);
      const inner = isPlainObject(r) && depth < 8 ? objectProperties(doc, r, depth + 1) : undefined;
      if (inner === undefined) return undefined;
      for (const k of inner) out.add(k);
    }
  }
  return out.size === 0 ? undefined : out;
}

function resolve(doc: OpenAPIObject, schema: unknown): unknown {
  try {
    return deref<unknown>(doc, schema as never);
  } catch {
    return undefined;
  }
}
