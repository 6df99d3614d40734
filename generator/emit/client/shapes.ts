/**
 * What the client emitter makes of one operation's parameters, request
 * body and success answers (any OpenAPI 3.1 / 3.2 document):
 * - path parameters: the method's leading arguments, in path order (but
 *   those an `x-client-option` fills);
 * - query, header and cookie parameters: one typed object argument
 *   `{ query?, header?, cookie? }` after the body (required when one of them is);
 * - the request body: a component `$ref` in JSON is validated before it is
 *   sent; an inline JSON schema is typed inline; another media type is sent
 *   as given (`FormData`, `URLSearchParams`, a string, a Blob, bytes);
 * - the answer: JSON (component or inline type); `text/*` as a string;
 *   another media type as a Blob; an item stream (client/item-stream.ts in
 *   the runtime) for `text/event-stream` without `x-resume` and for
 *   `application/jsonl` / `application/x-ndjson`, typed by `itemSchema`
 *   (3.2) or `x-item-schema` (3.1). `application/json-seq` is left out (read
 *   as text) with a warning.
 */
import type { OpenAPIObject, OperationObject, ParameterObject } from "openapi3-ts/oas31";
import { escapePointerSegment, isPlainObject, unescapePointerSegment } from "../../load/json-pointer.js";
import { deref, isJsonMediaType, isRef, type OperationEntry } from "../operations.js";
import type { InlineTypes, PrintedType } from "./inline-types.js";
import { printed } from "./inline-types.js";
import { IDENTIFIER } from "../identifier.js";

export interface ClientWarning {
  readonly pointer: string;
  readonly reason: string;
}

export interface ParamShape {
  readonly wireName: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly type: PrintedType;
  readonly description: string;
  /** Query parameters: the runtime's `QueryStyle`; header and cookie ones: its `HeaderStyle`. */
  readonly style: "form" | "csv" | "deep" | "pipe" | "space" | "json" | "simple" | "explode";
  readonly clientOption: string | undefined;
  /** A path parameter the runtime does not write as one URL-encoded scalar: its `PathStyle` (an array or object, `label`, `matrix`, JSON content). */
  readonly pathStyle?: "simple" | "explode" | "label" | "labelExplode" | "matrix" | "matrixExplode" | "json";
}

/** Whether a (dereferenced) schema may hold an array or an object: anything but a plain scalar type. */
function mayBeStructured(doc: OpenAPIObject, schema: unknown): boolean {
  const s = isRef(schema) ? deref<unknown>(doc, schema) : schema;
  if (!isPlainObject(s)) return true;
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (types === undefined) return s.enum === undefined && s.const === undefined && s.format === undefined;
  return types.some((t) => t === "array" || t === "object");
}

/** The query styles OpenAPI names that are not `form` (which is `form` or `csv` by `explode`). */
const QUERY_STYLES: Readonly<Record<string, ParamShape["style"]>> = {
  deepObject: "deep",
  pipeDelimited: "pipe",
  spaceDelimited: "space",
};

/** The client option a parameter is filled from (`x-client-option`), when it names one that is an identifier. */
export function clientOptionOf(p: ParameterObject): string | undefined {
  const option = (p as unknown as Record<string, unknown>)["x-client-option"];
  return typeof option === "string" && IDENTIFIER.test(option) ? option : undefined;
}

/**
 * The parameters of an operation: its path item's, overridden by its own of
 * the same name and place (OpenAPI). OpenAPI 3.2's `in: querystring` (the
 * whole query string as one content-encoded value) is left out, with a
 * warning in `warnings`: the client sends query parameters one by one.
 */
export function parametersOf(
  doc: OpenAPIObject,
  { item, op, at, itemAt }: OperationEntry,
  types: InlineTypes,
  warnings: ClientWarning[] = [],
): ParamShape[] {
  const merged = new Map<string, { p: ParameterObject; at: string[] }>();
  const add = (list: unknown[] | undefined, at: string[]): void =>
    (list ?? []).forEach((raw, i) => {
      const p = deref<ParameterObject>(doc, raw as ParameterObject);
      const where = isRef(raw) ? raw.$ref.slice(2).split("/").map(unescapePointerSegment) : [...at, String(i)];
      merged.set(`${p.in}\0${p.name}`, { p, at: where });
    });
  add(item.parameters, [...itemAt, "parameters"]);
  add(op.parameters, [...at, "parameters"]);
  const sent = [...merged.values()].filter(({ p, at }) => {
    if ((p.in as string) !== "querystring") return true;
    warnings.push({
      pointer: `/${at.map(escapePointerSegment).join("/")}`,
      reason: `the \`in: querystring\` parameter ${JSON.stringify(p.name)} (OpenAPI 3.2) is left out: the client sends query parameters one by one, each typed`,
    });
    return false;
  });
  return sent.map(({ p, at }) => {
    // A parameter described by `content` (not `schema`) is its media type's encoding of the whole value: JSON is sent as one JSON text.
    const media = p.schema === undefined && isPlainObject(p.content) ? Object.keys(p.content)[0] : undefined;
    const json = media !== undefined && isJsonMediaType(media);
    // Query parameters default to `form` with explode; headers and cookies to `simple` without (OpenAPI, "style").
    const inQuery = p.in === "query";
    const explode = p.explode ?? (inQuery ? p.style === undefined || p.style === "form" : false);
    const style: ParamShape["style"] = json
      ? "json"
      : !inQuery
        ? explode
          ? "explode"
          : "simple"
        : (QUERY_STYLES[p.style ?? ""] ?? (explode ? "form" : "csv"));
    const schema = p.schema ?? (isPlainObject(p.content) ? Object.values(p.content)[0]?.schema : undefined);
    // Path: `simple` (the default), `label` or `matrix`, each with or without explode (default without).
    const pathStyle: ParamShape["pathStyle"] =
      p.in !== "path"
        ? undefined
        : json
          ? "json"
          : p.style === "label" || p.style === "matrix"
            ? p.explode === true
              ? `${p.style}Explode`
              : p.style
            : mayBeStructured(doc, schema)
              ? p.explode === true
                ? "explode"
                : "simple"
              : undefined;
    return {
      wireName: p.name,
      in: p.in as ParamShape["in"],
      required: p.required === true || p.in === "path",
      type: schema === undefined ? printed("string") : types.typeOf(schema, [...at, "schema"]),
      description: p.description ?? "",
      style,
      clientOption: clientOptionOf(p),
      ...(pathStyle !== undefined && { pathStyle }),
    };
  });
}

export interface BodyShape {
  readonly type: PrintedType;
  readonly required: boolean;
  /** The media type when it is not `application/json`: another JSON one (`application/merge-patch+json`) is sent JSON-encoded with it, any other as given. */
  readonly media: string | undefined;
}

/** The body's type for a request media type that is not JSON. */
function rawBodyType(media: string): PrintedType {
  if (/^multipart\/form-data/i.test(media)) return printed("FormData");
  if (/^application\/x-www-form-urlencoded/i.test(media)) return printed("URLSearchParams | string");
  if (/^text\//i.test(media)) return printed("string");
  return printed("Blob | ArrayBuffer | Uint8Array | string");
}

/** The request body (the first JSON media type, else the first one), or undefined without one. */
export function bodyOf(
  doc: OpenAPIObject,
  { op, at: opAt }: OperationEntry,
  types: InlineTypes,
): BodyShape | undefined {
  if (op.requestBody === undefined) return undefined;
  const body = deref<{ content?: Record<string, { schema?: unknown }>; required?: boolean }>(
    doc,
    op.requestBody as never,
  );
  const medias = Object.keys(body.content ?? {});
  const media = medias.find(isJsonMediaType) ?? medias[0];
  if (media === undefined) return undefined;
  const schema = body.content![media]!.schema;
  const at = isRef(op.requestBody) ? [] : [...opAt, "requestBody", "content", media, "schema"];
  const json = isJsonMediaType(media);
  return {
    type: json ? types.typeOf(schema ?? true, at) : rawBodyType(media),
    required: body.required === true,
    media: json && /^application\/json$/i.test(media) ? undefined : media,
  };
}

export type AnswerShape =
  | { readonly kind: "json"; readonly type: PrintedType; readonly emptyOk: boolean }
  | { readonly kind: "text" | "blob"; readonly type: PrintedType; readonly emptyOk: boolean }
  | {
      readonly kind: "items";
      readonly mode: "sse" | "sse-json" | "sse-data" | "jsonl";
      readonly item: PrintedType;
      /** An SSE stream's end-of-stream data (`x-sse-sentinel`; `[DONE]` by default where the data is JSON, none for text data). */
      readonly sentinel?: string | undefined;
      /** A stream whose server resumes after `Last-Event-ID` (`x-sse-resume: true` on the media type). */
      readonly resume?: boolean;
      /** The same status also answers JSON (this type): the runtime picks by the answer's Content-Type. */
      readonly json?: PrintedType | undefined;
      /** The boolean request-body property that selects the stream (`stream` by convention; `x-stream-flag` names another). */
      readonly flag?: string | undefined;
    }
  | { readonly kind: "resumable" };

const SSE = /^text\/event-stream/i;
const JSONL = /^application\/(jsonl|x-ndjson|x-jsonlines|json-lines)/i;
const JSON_SEQ = /^application\/json-seq/i;

/** An SSE item: the 3.2 event object, or (without an item schema) `{ event, data, id }` with text data. */
const PLAIN_SSE_ITEM = printed("{ event: string; data: string; id: string; retry?: number }");

/** Whether an SSE item schema says its `data` is JSON (every `data` with `contentMediaType` JSON, looking through unions). */
function sseDataIsJson(schema: unknown, doc: OpenAPIObject, depth = 0): boolean {
  const resolved = deref<unknown>(doc, schema as never);
  if (!isPlainObject(resolved) || depth > 8) return false;
  const branches = [resolved.oneOf, resolved.anyOf].find(Array.isArray) as unknown[] | undefined;
  if (branches) return branches.length > 0 && branches.every((branch) => sseDataIsJson(branch, doc, depth + 1));
  const data = isPlainObject(resolved.properties) ? deref<unknown>(doc, resolved.properties.data as never) : undefined;
  return isPlainObject(data) && typeof data.contentMediaType === "string" && isJsonMediaType(data.contentMediaType);
}

/** The fields an event of the 3.2 `itemSchema` (and the 3.0/3.1 event-shaped `schema`) has: the SSE fields. */
const SSE_FIELDS = new Set(["id", "event", "data", "retry"]);

/** The branches of a (dereferenced) union (`oneOf`/`anyOf`), or the schema alone. */
function branchesOf(doc: OpenAPIObject, schema: unknown): unknown[] {
  const resolved = deref<unknown>(doc, schema as never);
  if (!isPlainObject(resolved)) return [resolved];
  const union = [resolved.oneOf, resolved.anyOf].find(Array.isArray) as unknown[] | undefined;
  return union && union.length > 0 && resolved.properties === undefined
    ? union.map((b) => deref<unknown>(doc, b as never))
    : [resolved];
}

/** The property names of an object schema, or undefined when it does not describe an object with properties. */
function propertyNames(schema: unknown): string[] | undefined {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return undefined;
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : ["object"];
  return types.includes("object") ? Object.keys(schema.properties) : undefined;
}

/** Whether a (dereferenced) `data` schema says the data is text: `type: string` (without JSON `contentMediaType`). */
function isTextData(doc: OpenAPIObject, data: unknown): boolean {
  const resolved = deref<unknown>(doc, data as never);
  if (!isPlainObject(resolved)) return false;
  if (typeof resolved.contentMediaType === "string") return !isJsonMediaType(resolved.contentMediaType);
  const types =
    typeof resolved.type === "string"
      ? [resolved.type]
      : Array.isArray(resolved.type)
        ? resolved.type.filter((t) => t !== "null")
        : undefined;
  return types !== undefined && types.length > 0 && types.every((t) => t === "string");
}

/**
 * How a 3.0/3.1 `text/event-stream` media type's `schema` is read (the rule,
 * docs/event-streams.md): `"plain"` (no schema, `{}`, or a string: text
 * events), `"event"` (event-shaped: an object, or a union of objects, whose
 * properties are among `id`, `event`, `data` and `retry`, with `data` among
 * them: what 3.2's `itemSchema` means) or `"payload"` (anything else: the
 * schema of each event's `data`, parsed as JSON); `guess` when a document
 * could mean the other one (an event-shaped schema with `data` alone, or a
 * payload whose properties include SSE field names).
 */
export function sseSchemaReading(
  doc: OpenAPIObject,
  schema: unknown,
): { reading: "plain" | "event" | "payload"; json: boolean; guess: boolean; mixed?: boolean } {
  const resolved = deref<unknown>(doc, schema as never);
  if (
    resolved === undefined ||
    resolved === true ||
    (isPlainObject(resolved) &&
      Object.keys(resolved).filter((k) => !/^(description|title|x-.*|example|examples)$/.test(k)).length === 0)
  )
    return { reading: "plain", json: false, guess: false };
  if (isPlainObject(resolved) && resolved.type === "string" && resolved.contentMediaType === undefined)
    return { reading: "plain", json: false, guess: false };
  const branches = branchesOf(doc, schema).map((b) => propertyNames(b));
  const eventShaped = branches.every((names) => names?.includes("data") && names.every((n) => SSE_FIELDS.has(n)));
  if (eventShaped) {
    const text = branchesOf(doc, schema).map((b) =>
      isTextData(doc, (b as { properties: Record<string, unknown> }).properties["data"]),
    );
    const json = text.every((t) => !t);
    return {
      reading: "event",
      json,
      guess: branches.every((names) => names!.length === 1),
      mixed: !json && text.some((t) => !t),
    };
  }
  return {
    reading: "payload",
    json: true,
    guess: branches.some((names) => names?.includes("data") || names?.includes("event")),
  };
}

/** The operation's success answer, with the warnings about what is left out. */
/** The JSON pointer of a path of keys. */
const pointerOf = (at: readonly string[]): string => `/${at.map(escapePointerSegment).join("/")}`;

/**
 * The item stream of a `text/event-stream` media type: `itemSchema` (3.2)
 * and `x-item-schema` first, else its `schema` read by `sseSchemaReading`
 * (3.0/3.1), with one warning where that reading is a guess.
 */
function sseAnswer(
  doc: OpenAPIObject,
  media: Record<string, unknown>,
  at: string[] | undefined,
  types: InlineTypes,
  warnings: ClientWarning[],
): AnswerShape & { kind: "items" } {
  const declared = media["x-sse-sentinel"];
  const resume = media["x-sse-resume"] === true ? { resume: true } : {};
  const sentinelFor = (json: boolean): { sentinel?: string } =>
    typeof declared === "string" ? { sentinel: declared } : json && declared !== null ? { sentinel: "[DONE]" } : {};
  if (media["itemSchema"] !== undefined) {
    const item = media["itemSchema"];
    const json = sseDataIsJson(item, doc);
    return {
      kind: "items",
      mode: json ? "sse-json" : "sse",
      item: types.typeOf(item, [...(at ?? []), "itemSchema"], { decodeJsonContent: json }),
      ...sentinelFor(json),
      ...resume,
    };
  }
  if (media["x-item-schema"] !== undefined)
    return {
      kind: "items",
      mode: "sse-data",
      item: types.typeOf(media["x-item-schema"], [...(at ?? []), "x-item-schema"]),
      ...sentinelFor(true),
      ...resume,
    };
  const schema = media["schema"];
  const { reading, json, guess, mixed } = sseSchemaReading(doc, schema);
  if (reading === "plain") return { kind: "items", mode: "sse", item: PLAIN_SSE_ITEM, ...resume };
  if (mixed) {
    // Some events' data is text and some JSON: the stream cannot say which to decode, so every data is text.
    if (at !== undefined)
      warnings.push({
        pointer: pointerOf([...at, "schema"]),
        reason:
          "the text/event-stream `schema` types some events' `data` as text and others' as JSON: every event is read with its data as text; say which events carry JSON with OpenAPI 3.2 `itemSchema` (`contentMediaType: application/json`) or one `x-item-schema`",
      });
    return { kind: "items", mode: "sse", item: PLAIN_SSE_ITEM, ...resume };
  }
  if (guess && at !== undefined) {
    warnings.push({
      pointer: pointerOf([...at, "schema"]),
      reason:
        reading === "event"
          ? "the text/event-stream `schema` is read as the event (its fields among id, event, data, retry; a `data` typed as an object or array is JSON); if it is the schema of each event's data instead, state it with `x-item-schema` (or OpenAPI 3.2 `itemSchema` for the event)"
          : "the text/event-stream `schema` is read as the schema of each event's data, parsed as JSON; if it describes the event itself (id, event, data, retry), state it with OpenAPI 3.2 `itemSchema`, or say the data's schema with `x-item-schema`",
    });
  }
  if (reading === "event")
    return {
      kind: "items",
      mode: json ? "sse-json" : "sse",
      item: types.typeOf(schema, [...(at ?? []), "schema"], { decodeJsonContent: json }),
      ...sentinelFor(json),
      ...resume,
    };
  return {
    kind: "items",
    mode: "sse-data",
    item: types.typeOf(schema, [...(at ?? []), "schema"]),
    ...sentinelFor(true),
    ...resume,
  };
}

/** The boolean request-body property that selects the stream of a JSON-or-stream operation: `x-stream-flag`, else `stream` when the body has such a boolean property. */
function streamFlagOf(doc: OpenAPIObject, op: OperationObject): string | undefined {
  const declared = (op as Record<string, unknown>)["x-stream-flag"];
  const body = deref<{ content?: Record<string, { schema?: unknown }> }>(doc, op.requestBody as never);
  const schema = Object.entries(body?.content ?? {}).find(([m]) => isJsonMediaType(m))?.[1].schema;
  const properties = deref<{ properties?: Record<string, unknown> }>(doc, schema as never)?.properties ?? {};
  const name = typeof declared === "string" ? declared : "stream";
  const property = deref<{ type?: unknown }>(doc, properties[name] as never);
  const boolean =
    property !== undefined &&
    (property.type === "boolean" || (Array.isArray(property.type) && property.type.includes("boolean")));
  return boolean ? name : undefined;
}

export function answerOf(
  doc: OpenAPIObject,
  { op, at: opAt }: OperationEntry,
  types: InlineTypes,
  resumable: boolean,
  warnings: ClientWarning[],
): AnswerShape {
  const responses = (op.responses ?? {}) as Record<string, unknown>;
  const success = Object.keys(responses)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort();
  // No 2xx documented (only `default`): its body is the answer.
  const statuses = success.length > 0 ? success : Object.keys(responses).filter((status) => status === "default");
  const jsonTypes: PrintedType[] = [];
  let empty = statuses.length === 0;
  let text: "text" | "blob" | undefined;
  for (const status of statuses) {
    const response = deref<{ content?: Record<string, Record<string, unknown>> }>(doc, responses[status] as never);
    const content = response.content ?? {};
    const medias = Object.keys(content);
    if (medias.length === 0) empty = true;
    for (const media of medias) {
      const at = isRef(responses[status]) ? undefined : [...opAt, "responses", status, "content", media];
      const item = content[media]!["itemSchema"] ?? content[media]!["x-item-schema"];
      if (SSE.test(media)) {
        if (resumable) return { kind: "resumable" };
        const stream = sseAnswer(doc, content[media]!, at, types, warnings);
        // The same status answering JSON too: the runtime picks by the answer's Content-Type; the types by the request's flag property.
        const jsonMedia = medias.filter((m) => m !== media && isJsonMediaType(m));
        if (jsonMedia.length === 0) return stream;
        const json = jsonMedia.map(
          (m) => types.typeOf(content[m]!.schema ?? true, [...(at ? [...at.slice(0, -1), m] : []), "schema"]).printed,
        );
        const union = [...new Set(json)];
        return {
          ...stream,
          json: printed(union.includes("unknown") ? "unknown" : union.join(" | ")),
          flag: streamFlagOf(doc, op),
        };
      }
      if (JSONL.test(media)) {
        return {
          kind: "items",
          mode: "jsonl",
          item:
            item === undefined
              ? printed("unknown")
              : types.typeOf(item, [
                  ...(at ?? []),
                  content[media]!["itemSchema"] !== undefined ? "itemSchema" : "x-item-schema",
                ]),
        };
      }
      if (isJsonMediaType(media))
        jsonTypes.push(types.typeOf(content[media]!.schema ?? true, [...(at ?? []), "schema"]));
      else {
        if (JSON_SEQ.test(media) && at !== undefined) {
          warnings.push({
            pointer: pointerOf(at),
            reason: `\`${media}\` (JSON text sequences) is left out: the client returns the body as text`,
          });
        }
        text ??= /^text\//i.test(media) || JSON_SEQ.test(media) ? "text" : "blob";
      }
    }
  }
  if (jsonTypes.length > 0) {
    const union = [...new Set(jsonTypes.map((t) => t.printed))];
    const type = union.includes("unknown")
      ? "unknown"
      : union.map((t) => (union.length > 1 && /[|&]/.test(t) ? `(${t})` : t)).join(" | ");
    return { kind: "json", type: printed(empty && type !== "unknown" ? `${type} | undefined` : type), emptyOk: empty };
  }
  if (text !== undefined) return { kind: text, type: printed(text === "text" ? "string" : "Blob"), emptyOk: empty };
  return { kind: "json", type: printed(empty ? "undefined" : "unknown"), emptyOk: empty };
}
