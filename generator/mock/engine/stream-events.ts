/**
 * The events the document mock streams for one `text/event-stream` media
 * type (the conventions: ./sse-items.ts), as SSE frames:
 *
 * - from an example when the media type has one (and `Prefer: dynamic=true`
 *   does not ask otherwise): a string is the stream's text, frames as
 *   written; an array is the events (event objects, or data values);
 * - else generated: a union gives one event of each branch (branches
 *   marked `x-terminal: true` last, and only the first of them; a branch
 *   whose `event` is `error` is left out: it ends a client's stream with an
 *   error), anything else three events.
 *
 * Each generated frame carries `id: <n>` (1, 2, …: what `Last-Event-ID`
 * resumes from), except for an event-shaped schema that declares no `id`
 * property. A JSON stream whose media type has `x-sse-sentinel` (a string,
 * or `true` for `[DONE]`) ends with `data: <sentinel>` (no id). The run
 * faults `unknown-event` and `malformed-frame` add their frames here.
 */
import type { OpenAPIObject } from "openapi3-ts/oas31";
import { isPlainObject } from "../../load/json-pointer.js";
import { RunFaults, UNKNOWN_EVENT_TYPE, type FaultSpec } from "../faults/index.js";
import { eventDataOf, unionBranches, type SseItemReading } from "./sse-items.js";
import { generate, resolveRef } from "./values.js";

/** One frame of the stream's log (`seq`: its place, what a numeric `Last-Event-ID` resumes after). */
export interface StreamEntry {
  readonly seq: number;
  readonly type: string;
  /** The frame, `\n` line ends, the blank line included. */
  readonly text: string;
}

export interface StreamSource {
  readonly doc: OpenAPIObject;
  readonly media: Record<string, unknown>;
  readonly reading: SseItemReading;
  /** An example given (by name, or the media type's), or undefined to generate. */
  readonly example: { readonly value: unknown } | undefined;
}

/** How many events a stream of one schema (not a union) has. */
const PLAIN_EVENTS = 3;

/** The sentinel the media type declares (`x-sse-sentinel`: a string, or `true` for `[DONE]`), or undefined. */
export function sentinelOf(media: Record<string, unknown>): string | undefined {
  const declared = media["x-sse-sentinel"];
  return declared === true ? "[DONE]" : typeof declared === "string" && declared !== "" ? declared : undefined;
}

/** The stream's frames, with the run faults of `specs` applied. */
export function streamEntries(source: StreamSource, specs: readonly FaultSpec[]): StreamEntry[] {
  const { doc, reading } = source;
  const faults = new RunFaults(specs);
  const out: StreamEntry[] = [];
  const push = (type: string, body: string, withId: boolean): void => {
    const seq = out.length + 1;
    out.push({ seq, type, text: `${withId ? `id: ${seq}\n` : ""}${body}\n` });
  };
  const items = itemsOf(source);
  items.forEach((item, i) => {
    for (const entry of faults.expand(item.type, item, i === items.length - 1)) {
      if ("raw" in entry) push("message", dataLines(entry.raw), true);
      else if (entry.type === UNKNOWN_EVENT_TYPE)
        push(UNKNOWN_EVENT_TYPE, `event: ${UNKNOWN_EVENT_TYPE}\n${dataLines(JSON.stringify(entry.data))}`, true);
      else {
        const it = entry.data as Item;
        if (it.raw !== undefined) out.push({ seq: out.length + 1, type: it.type, text: it.raw });
        else push(it.type, it.body, it.withId);
      }
    }
  });
  const sentinel = sentinelOf(source.media);
  const json =
    reading.kind === "payload" ||
    (reading.kind === "event" && unionBranches(doc, reading.schema).some((b) => eventDataOf(doc, b).json));
  if (sentinel !== undefined && json)
    out.push({ seq: out.length + 1, type: "sentinel", text: `data: ${sentinel}\n\n` });
  return out;
}

interface Item {
  readonly type: string;
  /** The frame's fields without `id:` (generated), or */
  readonly body: string;
  readonly withId: boolean;
  /** a frame as an example wrote it. */
  readonly raw?: string;
}

function itemsOf(source: StreamSource): Item[] {
  const { doc, reading, example } = source;
  if (example !== undefined) {
    if (typeof example.value === "string") return framesOfText(example.value);
    const values = Array.isArray(example.value) ? example.value : [example.value];
    return values.map((v) => itemOf(doc, reading, v, undefined));
  }
  if (reading.kind === "text") {
    const schema = reading.source === "schema" ? source.media["schema"] : undefined;
    return Array.from({ length: PLAIN_EVENTS }, (_, i) => {
      const v = schema === undefined ? `event ${i + 1}` : generate(doc, schema);
      return itemOf(doc, reading, v, undefined);
    });
  }
  const branches = unionBranches(doc, reading.schema);
  if (branches.length === 1)
    return Array.from({ length: PLAIN_EVENTS }, () =>
      itemOf(doc, reading, branchValue(doc, reading, branches[0]), branches[0]),
    );
  const usable = branches.filter((b) => !(reading.kind === "event" && eventNameOf(doc, b) === "error"));
  const terminal = usable.filter(
    (b) => isPlainObject(resolveRef(doc, b)) && (resolveRef(doc, b) as Record<string, unknown>)["x-terminal"] === true,
  );
  const ordered = [...usable.filter((b) => !terminal.includes(b)), ...terminal.slice(0, 1)];
  return ordered.map((b) => itemOf(doc, reading, branchValue(doc, reading, b), b));
}

/** A generated value of one branch: for an event object whose data is JSON in a string (`contentSchema`), that JSON value as its data. */
function branchValue(doc: OpenAPIObject, reading: SseItemReading, branch: unknown): unknown {
  const value = generate(doc, branch);
  if (reading.kind !== "event" || !isPlainObject(value)) return value;
  const data = eventDataOf(doc, branch);
  const declared = resolveRef(doc, (resolveRef(doc, branch) as Record<string, unknown> | undefined)?.["properties"]);
  const dataSchema = isPlainObject(declared) ? resolveRef(doc, declared["data"]) : undefined;
  if (data.json && isPlainObject(dataSchema) && dataSchema["contentSchema"] !== undefined)
    return { ...value, data: generate(doc, dataSchema["contentSchema"]) };
  return value;
}

/** The `event` name a branch fixes (`const`, or a single `enum`), if any. */
function eventNameOf(doc: OpenAPIObject, branch: unknown): string | undefined {
  const resolved = resolveRef(doc, branch);
  const props = isPlainObject(resolved) && isPlainObject(resolved["properties"]) ? resolved["properties"] : {};
  const event = resolveRef(doc, props["event"]);
  if (!isPlainObject(event)) return undefined;
  if (typeof event["const"] === "string") return event["const"];
  return Array.isArray(event["enum"]) && event["enum"].length === 1 && typeof event["enum"][0] === "string"
    ? event["enum"][0]
    : undefined;
}

/** Whether an event-shaped branch declares `id` (then its frames carry ids). */
function declaresId(doc: OpenAPIObject, reading: SseItemReading): boolean {
  if (reading.kind !== "event") return true;
  return unionBranches(doc, reading.schema).some((b) => {
    const resolved = resolveRef(doc, b);
    return isPlainObject(resolved) && isPlainObject(resolved["properties"]) && "id" in resolved["properties"];
  });
}

function itemOf(doc: OpenAPIObject, reading: SseItemReading, value: unknown, branch: unknown): Item {
  if (reading.kind === "payload") return { type: "message", body: dataLines(JSON.stringify(value)), withId: true };
  if (reading.kind === "text")
    return {
      type: "message",
      body: dataLines(typeof value === "string" ? value : JSON.stringify(value)),
      withId: true,
    };
  const event = isPlainObject(value) ? value : { data: value };
  const json = branch === undefined ? typeof event["data"] !== "string" : eventDataOf(doc, branch).json;
  const data = event["data"];
  const lines: string[] = [];
  const type = typeof event["event"] === "string" && event["event"] !== "" ? event["event"] : "message";
  if (type !== "message" || typeof event["event"] === "string") lines.push(`event: ${type}`);
  if (
    typeof event["retry"] === "number" &&
    Number.isInteger(event["retry"]) &&
    event["retry"] >= 0 &&
    isRequired(doc, branch, "retry")
  )
    lines.push(`retry: ${event["retry"]}`);
  lines.push(dataLines(json || typeof data !== "string" ? JSON.stringify(data ?? null) : data).slice(0, -1));
  return { type, body: `${lines.join("\n")}\n`, withId: declaresId(doc, reading) };
}

function isRequired(doc: OpenAPIObject, branch: unknown, property: string): boolean {
  const resolved = resolveRef(doc, branch);
  return isPlainObject(resolved) && Array.isArray(resolved["required"]) && resolved["required"].includes(property);
}

/** `data:` lines of a text (one per line of it), with the final `\n`. */
function dataLines(text: string): string {
  return `${text
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}`)
    .join("\n")}\n`;
}

/** The frames of an example's stream text, as written (line ends made `\n`; a frame without its blank line gets one). */
function framesOfText(text: string): Item[] {
  return text
    .replace(/\r\n|\r/g, "\n")
    .split(/\n{2,}/)
    .filter((f) => f.trim() !== "")
    .map((frame) => {
      const event = /^event: ?(.*)$/m.exec(frame);
      return { type: event?.[1] ?? "message", body: "", withId: false, raw: `${frame}\n\n` };
    });
}
