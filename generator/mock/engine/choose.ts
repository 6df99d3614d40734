/**
 * What the document mock answers an operation with: which status, which
 * media type, and whether a JSON-or-stream answer streams.
 *
 * - Status: the one the request asks for (`Prefer: code=404`, or
 *   `X-Mock-Status: 404`; a `4XX` range or `default` response serves a
 *   status it covers), else the lowest `2xx` the operation declares, else
 *   `2XX` (as 200), else `default` (as 200), else the lowest declared.
 * - Example: `Prefer: example=<name>` (or `X-Mock-Example`) picks a named
 *   example of the chosen status, or (without a code) of the first status
 *   that has one of that name; `Prefer: dynamic=true` generates from the
 *   schema even where examples exist.
 * - Media type: of a status offering both JSON and `text/event-stream`, the
 *   request selects by the client's rule: the boolean request-body
 *   property `stream` (or the one the operation's `x-stream-flag` names),
 *   `true` streams;
 *   without such a property, the `Accept` header (the higher `q`, then the
 *   earlier; no preference: JSON). Otherwise the first media type `Accept`
 *   allows, in the document's order (none allowed: the first).
 */
import type { IncomingMessage } from "node:http";
import type { OpenAPIObject, OperationObject, RequestBodyObject } from "openapi3-ts/oas31";
import { isPlainObject } from "../../load/json-pointer.js";
import { deref, isJsonMediaType, jsonMediaTypeOf } from "../../emit/operations.js";
import { resolveRef } from "./values.js";

export const SSE = /^text\/event-stream/i;

export interface Preference {
  readonly code?: number;
  readonly example?: string;
  readonly dynamic: boolean;
}

/** `Prefer: code=404, example=name, dynamic=true` (commas or semicolons), and the `X-Mock-Status` / `X-Mock-Example` headers. */
export function preferenceOf(req: IncomingMessage): Preference | string {
  const pairs = new Map<string, string>();
  const prefer = req.headers["prefer"];
  for (const part of (typeof prefer === "string" ? prefer : "").split(/[,;]/)) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    pairs.set(
      part.slice(0, at).trim().toLowerCase(),
      part
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1"),
    );
  }
  const status = header(req, "x-mock-status") ?? pairs.get("code");
  const example = header(req, "x-mock-example") ?? pairs.get("example");
  if (status !== undefined && !/^[1-5]\d\d$/.test(status))
    return `a status asked for (Prefer: code= or X-Mock-Status) is a three-digit code from 100 to 599, got ${JSON.stringify(status)}`;
  return {
    ...(status === undefined ? {} : { code: Number(status) }),
    ...(example === undefined ? {} : { example }),
    dynamic: pairs.get("dynamic") === "true",
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

/** A declared response: its key as written (`200`, `4XX`, `default`) and the status sent. */
export interface ChosenStatus {
  readonly key: string;
  readonly code: number;
}

/** The status to answer (see the file comment), or a message when the request asks for one the operation does not declare. */
export function chooseStatus(op: OperationObject, code: number | undefined): ChosenStatus | string {
  const keys = Object.keys(op.responses ?? {});
  const numeric = keys.filter((k) => /^\d{3}$/.test(k)).sort();
  if (code !== undefined) {
    const key =
      keys.find((k) => k === String(code)) ??
      keys.find((k) => k.toUpperCase() === `${String(code)[0]}XX`) ??
      keys.find((k) => k === "default");
    return key === undefined
      ? `the operation declares no ${code} answer (declared: ${keys.join(", ") || "none"})`
      : { key, code };
  }
  const success = numeric.find((k) => k.startsWith("2"));
  if (success !== undefined) return { key: success, code: Number(success) };
  const range = keys.find((k) => k.toUpperCase() === "2XX");
  if (range !== undefined) return { key: range, code: 200 };
  if (keys.includes("default")) return { key: "default", code: 200 };
  if (numeric.length > 0) return { key: numeric[0]!, code: Number(numeric[0]) };
  return { key: "", code: 200 };
}

/** The statuses to look in for a named example: the chosen one first, then (without a code asked for) every other in key order. */
export function statusesForExample(op: OperationObject, chosen: ChosenStatus, codeAsked: boolean): ChosenStatus[] {
  if (codeAsked) return [chosen];
  const others = Object.keys(op.responses ?? {})
    .filter((k) => k !== chosen.key)
    .sort()
    .map((key) => ({
      key,
      code: /^\d{3}$/.test(key) ? Number(key) : key.toUpperCase().endsWith("XX") ? Number(key[0]) * 100 : 200,
    }));
  return [chosen, ...others];
}

/** One entry of an Accept header. */
interface AcceptRange {
  readonly type: string;
  readonly q: number;
  readonly index: number;
}

function acceptOf(req: IncomingMessage): AcceptRange[] {
  const accept = req.headers["accept"];
  if (typeof accept !== "string" || accept.trim() === "") return [];
  return accept.split(",").flatMap((part, index) => {
    const [type, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (type === undefined || type === "") return [];
    const q = params.map((p) => /^q=([\d.]+)$/.exec(p)).find((m) => m !== null);
    return [{ type, q: q === undefined ? 1 : Number(q![1]), index }];
  });
}

/** How well `media` is accepted: its q and the index of the range that matched (exact, then `type/*`, then `*\/*`), or undefined. */
function acceptance(
  ranges: readonly AcceptRange[],
  media: string,
): { q: number; index: number; specific: boolean } | undefined {
  const m = media.split(";")[0]!.trim().toLowerCase();
  const main = m.split("/")[0];
  const exact = ranges.find((r) => r.type === m) ?? ranges.find((r) => r.type === `${main}/*`);
  if (exact !== undefined) return { q: exact.q, index: exact.index, specific: true };
  const any = ranges.find((r) => r.type === "*/*");
  return any === undefined ? undefined : { q: any.q, index: any.index, specific: false };
}

/** The boolean property of the JSON request body that selects the stream: the one the operation's `x-stream-flag` names, else `stream`; undefined unless the body has it as a boolean. */
export function streamFlagOf(doc: OpenAPIObject, op: OperationObject): { name: string; default: boolean } | undefined {
  const body = op.requestBody === undefined ? undefined : deref<RequestBodyObject>(doc, op.requestBody);
  const media = jsonMediaTypeOf(body?.content);
  const schema = media === undefined ? undefined : (body!.content[media] as Record<string, unknown>)["schema"];
  const declared = (op as Record<string, unknown>)["x-stream-flag"];
  const name = typeof declared === "string" ? declared : "stream";
  const prop = resolveRef(doc, propertiesOf(doc, schema)[name]);
  const boolean =
    isPlainObject(prop) &&
    (prop["type"] === "boolean" || (Array.isArray(prop["type"]) && prop["type"].includes("boolean")));
  return boolean ? { name, default: prop["default"] === true } : undefined;
}

function propertiesOf(doc: OpenAPIObject, schema: unknown, depth = 0): Record<string, unknown> {
  const s = resolveRef(doc, schema);
  if (!isPlainObject(s) || depth > 8) return {};
  const own = isPlainObject(s["properties"]) ? s["properties"] : {};
  const parts = Array.isArray(s["allOf"]) ? s["allOf"].map((p) => propertiesOf(doc, p, depth + 1)) : [];
  return Object.assign({}, ...parts, own) as Record<string, unknown>;
}

/**
 * The media type to answer with, from a response's `content` (keys in the
 * document's order): see the file comment.
 */
export function chooseMedia(
  doc: OpenAPIObject,
  op: OperationObject,
  content: Record<string, unknown>,
  req: IncomingMessage,
  body: unknown,
): string | undefined {
  const medias = Object.keys(content);
  if (medias.length === 0) return undefined;
  const json = medias.find(isJsonMediaType);
  const sse = medias.find((m) => SSE.test(m));
  const ranges = acceptOf(req);
  if (json !== undefined && sse !== undefined) {
    const flag = streamFlagOf(doc, op);
    if (flag !== undefined) {
      const value = isPlainObject(body) ? body[flag.name] : undefined;
      return (typeof value === "boolean" ? value : flag.default) ? sse : json;
    }
    const a = acceptance(ranges, sse);
    const b = acceptance(ranges, json);
    if (a === undefined || !a.specific) return json;
    if (b === undefined || !b.specific) return sse;
    return a.q > b.q || (a.q === b.q && a.index < b.index) ? sse : json;
  }
  if (ranges.length === 0) return medias[0];
  const scored = medias
    .map((m, i) => ({ m, i, a: acceptance(ranges, m) }))
    .filter((x) => x.a !== undefined && x.a.q > 0);
  scored.sort((x, y) => y.a!.q - x.a!.q || Number(y.a!.specific) - Number(x.a!.specific) || x.i - y.i);
  return scored[0]?.m ?? medias[0];
}
