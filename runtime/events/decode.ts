/**
 * SSE messages -> protocol events: the top layer of the decoder, the only one
 * that knows MANTYX rules (runtime/sse below it is protocol-neutral).
 *
 * Per message: `data` is JSON-parsed and checked against `AgentRunEvent` with
 * the generated validator. The type comes from the envelope's `type`, never
 * from the SSE `event:` line (middleware may strip it, http-surface.md). An
 * unknown `type` is valid (`UnknownAgentRunEvent`) and delivered as is.
 * A message that is not JSON, or not an event, becomes a StreamDecodeError,
 * handled per `onInvalid`. Iteration ends after a terminal event.
 */
import type { SseMessage } from "../sse/index.js";
import type { AgentRunEvent } from "../../generated/types.js";
import { validateAgentRunEvent } from "../../generated/validators/agent-run-event.js";
import type { ValidationIssue } from "../../generated/validators/runtime.js";
import { StreamDecodeError } from "./errors.js";

/**
 * What to do with a message that is not a valid event.
 * - `"throw"` (default): the iterator throws the StreamDecodeError (after
 *   delivering the events before it).
 * - `"deliver"`: the StreamDecodeError is an item of the stream; go on.
 * - `"skip-and-warn"`: drop it, report it to `onWarning`; go on.
 */
export type OnInvalid = "throw" | "deliver" | "skip-and-warn";

/**
 * Schema checking of each event (and, in the client, of request bodies).
 * - `"throw"` (default): an event that fails `AgentRunEvent` is a StreamDecodeError.
 * - `"warn"`: it is reported to `onWarning` and delivered anyway (typed as
 *   valid though it is not), provided it still has the envelope
 *   (`seq` integer, `type` string), which resuming and terminal detection need.
 * - `"off"`: only that envelope is checked.
 * Invalid JSON is a StreamDecodeError whatever this says.
 */
export type ValidationMode = "off" | "warn" | "throw";

/** Reports what `"warn"` / `"skip-and-warn"` let through or dropped. Default: `console.warn`. */
export type WarningHandler = (message: string, detail: StreamDecodeError) => void;

export interface DecodeOptions {
  /** Default `"throw"`. */
  onInvalid?: OnInvalid | undefined;
  /** Default `"throw"`. */
  validation?: ValidationMode | undefined;
  /** Default: `console.warn(message)`. */
  onWarning?: WarningHandler | undefined;
}

export type DecodedItem = AgentRunEvent | StreamDecodeError;

/** A default that works everywhere `console` exists, silent where it does not. */
export const defaultWarning: WarningHandler = (message) => {
  if (typeof console !== "undefined") console.warn(message);
};

/** Envelope fields the stream itself relies on: `seq` to resume, `type` to detect the end. */
function hasEnvelope(value: unknown): value is { seq: number; type: string; data: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const v = value as { seq?: unknown; type?: unknown };
  return typeof v.type === "string" && typeof v.seq === "number" && Number.isInteger(v.seq) && v.seq >= 0;
}

const ENVELOPE_ISSUE: ValidationIssue = {
  instancePath: "",
  schemaPath: "#/required",
  keyword: "required",
  params: { missingProperty: "seq|type" },
  message: "must be an object with an integer `seq` >= 0 and a string `type`",
};

/** Checks one parsed value. Pure apart from the validator's `errors`. */
export function checkEvent(
  value: unknown,
  frame: SseMessage,
  validation: ValidationMode,
  onWarning: WarningHandler,
): DecodedItem {
  if (validation === "off") {
    return hasEnvelope(value) ? (value as AgentRunEvent) : new StreamDecodeError("invalid-event", frame, [ENVELOPE_ISSUE], undefined, value);
  }
  if (validateAgentRunEvent(value)) return value;
  const issues = validateAgentRunEvent.errors ?? [];
  const error = new StreamDecodeError("invalid-event", frame, issues, undefined, value);
  if (validation === "warn" && hasEnvelope(value)) {
    onWarning(`MANTYX: delivering an event that does not match the schema (validation: "warn"): ${error.message}`, error);
    return value as AgentRunEvent;
  }
  return error;
}

/** One SSE message -> an event or a StreamDecodeError (never throws). */
export function decodeEventMessage(frame: SseMessage, options: DecodeOptions = {}): DecodedItem {
  let value: unknown;
  try {
    value = JSON.parse(frame.data);
  } catch (cause) {
    return new StreamDecodeError("invalid-json", frame, [], cause);
  }
  return checkEvent(value, frame, options.validation ?? "throw", options.onWarning ?? defaultWarning);
}

/**
 * Decodes a batch of messages into `out`. Stops at the first terminal event
 * (returns "terminal") or, with onInvalid "throw", at the first invalid
 * message (returns it). Otherwise returns undefined.
 *
 * The hot path (valid JSON, valid event) is inlined: one JSON.parse, one
 * validator call and a push per message.
 */
export function decodeBatch(
  messages: readonly SseMessage[],
  out: DecodedItem[],
  onInvalid: OnInvalid,
  validation: ValidationMode,
  onWarning: WarningHandler,
): "terminal" | StreamDecodeError | undefined {
  const strict = validation === "throw";
  for (let i = 0; i < messages.length; i++) {
    const frame = messages[i]!;
    let value: unknown;
    let item: DecodedItem;
    try {
      value = JSON.parse(frame.data);
    } catch (cause) {
      value = INVALID;
      item = new StreamDecodeError("invalid-json", frame, [], cause);
    }
    if (value !== INVALID) {
      if (strict && validateAgentRunEvent(value)) {
        out.push(value);
        const t = value.type as string;
        if (t === "result" || t === "error" || t === "cancelled") return "terminal";
        continue;
      }
      item = strict ? new StreamDecodeError("invalid-event", frame, validateAgentRunEvent.errors ?? [], undefined, value) : checkEvent(value, frame, validation, onWarning);
    }
    if (item! instanceof StreamDecodeError) {
      if (onInvalid === "throw") return item;
      if (onInvalid === "skip-and-warn") onWarning(`MANTYX: skipped a malformed stream message (onInvalid: "skip-and-warn"): ${item.message}`, item);
      else out.push(item);
      // A malformed terminal event still ends the run: nothing follows it.
      if (item.terminal) return "terminal";
      continue;
    }
    out.push(item!);
    const t = item!.type as string;
    if (t === "result" || t === "error" || t === "cancelled") return "terminal";
  }
  return undefined;
}

/** Marks a message whose data did not parse (no JSON value is this object). */
const INVALID: unique symbol = Symbol("invalid-json");
