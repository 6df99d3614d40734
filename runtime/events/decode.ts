/**
 * SSE messages -> protocol events: the top layer of the decoder, the only one
 * that knows MANTYX rules (runtime/sse below it is protocol-neutral).
 *
 * Per message: `data` is JSON-parsed and read in either frame shape
 * (./frame-shape.ts: the nested envelope, or the flattened `{ seq, type?,
 * ...payload }` the official SDKs read), then checked against `AgentRunEvent`
 * at the receive level (the shape the type promises: a message carrying the
 * fields its type promises is delivered; schema/CONVENTIONS.md, "Two
 * validation levels"). The type comes from the frame's `type`, else from the
 * SSE `event:` line. An unknown `type` is valid (`UnknownAgentRunEvent`) and
 * delivered as is. A message that is not JSON, or not an event, becomes a
 * StreamDecodeError, handled per `onInvalid`. Strict checking is an opt-in
 * (`strict`): the program imports the strict validator and passes it, so a
 * program that does not ask for it does not bundle it.
 *
 * The iterables run on the SSE decoder's own iterators (runtime/sse/iterate.ts)
 * with a handler that decodes the messages of each chunk in one loop. Iteration ends after a
 * terminal event (the source is cancelled then: the server closes the
 * stream after it anyway), when the source ends, or when the consumer stops
 * (`break` cancels the source). Source errors, SSE decoding errors and the
 * abort reason propagate unchanged.
 */
import type { SseMessage } from "../sse/index.js";
import { items, iterate, type SseParseOptions, type SseSource } from "../sse/iterate.js";
import type { AgentRunEvent } from "../../generated/types.js";
import { validateAgentRunEventReceive } from "../../generated/validators/agent-run-event.receive.js";
import type { ValidationIssue } from "../../generated/validators/runtime.js";
import { StreamDecodeError } from "./errors.js";
import { recordFrameShape, toEnvelope } from "./frame-shape.js";
import { isTerminalType } from "./terminal.js";

/**
 * What to do with a message that is not a valid event.
 * - `"throw"` (default): the iterator throws the StreamDecodeError (after
 *   delivering the events before it).
 * - `"deliver"`: the StreamDecodeError is an item of the stream; go on.
 * - `"skip-and-warn"`: drop it, report it to `onWarning`; go on.
 */
export type OnInvalid = "throw" | "deliver" | "skip-and-warn";

/**
 * Schema checking of each event at the receive level (and, in the client,
 * of request bodies, at the strict level).
 * - `"throw"` (default): an event that fails `AgentRunEvent` at the receive
 *   level (a required field missing, a wrong type, a tag its variant does
 *   not match) is a StreamDecodeError.
 * - `"warn"`: it is reported to `onWarning` and delivered anyway (typed as
 *   valid though it is not), provided it still has the envelope
 *   (`seq` integer, `type` string), which resuming and terminal detection need.
 * - `"off"`: only that envelope is checked.
 * Invalid JSON is a StreamDecodeError whatever this says.
 */
export type ValidationMode = "off" | "warn" | "throw";

/** Reports what `"warn"` / `"skip-and-warn"` let through or dropped. Default: `console.warn(message, error)`. */
export type WarningHandler = (message: string, detail: StreamDecodeError) => void;

/**
 * A validator of the strict level, e.g. `validateAgentRunEvent` from
 * `@mantyx/wire-types/validators/agent-run-event`: a function returning
 * whether `data` is valid, with the issues of the last call in `errors`.
 */
export interface StrictEventValidator {
  (data: unknown): boolean;
  errors?: readonly ValidationIssue[] | null | undefined;
}

export interface DecodeOptions {
  /** Default `"throw"`. */
  onInvalid?: OnInvalid | undefined;
  /** Default `"throw"`. Applies to the receive level. */
  validation?: ValidationMode | undefined;
  /**
   * Strict checking of events, off by default: pass the strict validator
   * (`validateAgentRunEvent`). An event that passes the receive level but
   * not this one is still delivered, and reported once to `onWarning` (a
   * StreamDecodeError of type `strict-only`).
   */
  strict?: StrictEventValidator | undefined;
  /** Default: `console.warn(message, error)`. */
  onWarning?: WarningHandler | undefined;
}

/** The SSE options (`maxEventBytes`, `onRetry`, `onComment`, `signal`) and the decoding ones. */
export interface DecodeEventsOptions extends DecodeOptions, SseParseOptions {}

export type DecodedItem = AgentRunEvent | StreamDecodeError;

/**
 * The items a stream yields for an `onInvalid` of type `V`: the events, plus
 * StreamDecodeErrors only when `onInvalid` may be `"deliver"` (with
 * `"throw"`, the default, and `"skip-and-warn"` an invalid message is never
 * an item). So `for await (const event of decodeEvents(body))` needs no
 * check before `switch (event.type)`.
 */
export type DecodedItemFor<V extends OnInvalid> = "deliver" extends V ? DecodedItem : AgentRunEvent;

const warn = (options: DecodeOptions, what: string, error: StreamDecodeError): void =>
  (options.onWarning ?? console.warn)(`MANTYX ${what}: ${error.message}`, error);

/** One SSE message -> an event or a StreamDecodeError (never throws). */
export function decodeEventMessage(frame: SseMessage, options: DecodeOptions = {}): DecodedItem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame.data);
  } catch (cause) {
    return new StreamDecodeError("invalid-json", frame, [], cause);
  }
  const { envelope: value, shape } = toEnvelope(parsed, frame.event) as { envelope: any; shape: "envelope" | "flat" };
  const deliver = (): AgentRunEvent => {
    recordFrameShape(value, shape);
    return value;
  };
  const { validation, strict } = options;
  if (validation !== "off" && validateAgentRunEventReceive(value)) {
    if (strict !== undefined && !strict(value)) warn(options, "delivered (fails only the strict level)", new StreamDecodeError("strict-only", frame, strict.errors ?? [], undefined, value, shape));
    return deliver();
  }
  // What the stream itself relies on: `seq` to resume, `type` to detect the end.
  const envelope = typeof value?.type === "string" && Number.isInteger(value.seq) && value.seq >= 0;
  if (validation === "off" && envelope) return deliver();
  const error = new StreamDecodeError(
    "invalid-event",
    frame,
    validation === "off"
      ? [{ instancePath: "", schemaPath: "", keyword: "required", params: {}, message: "needs seq and type" }]
      : (validateAgentRunEventReceive.errors ?? []),
    undefined,
    value,
    shape,
  );
  if (validation !== "warn" || !envelope) return error;
  warn(options, 'delivered (validation "warn")', error);
  return deliver();
}

/** Decodes the messages of a chunk into `out`; true (end) after a terminal event. */
const handler =
  (options: DecodeOptions) =>
  (messages: SseMessage[], out: DecodedItem[]): boolean | void => {
    for (const frame of messages) {
      const item = decodeEventMessage(frame, options);
      if (item instanceof StreamDecodeError) {
        const { onInvalid } = options;
        if (onInvalid === "deliver") out.push(item);
        else if (onInvalid === "skip-and-warn") warn(options, 'skipped (onInvalid "skip-and-warn")', item);
        else throw item;
        // A malformed terminal event still ends the run: nothing follows it.
        if (item.terminal) return true;
      } else {
        out.push(item);
        if (isTerminalType(item.type)) return true;
      }
    }
  };

/**
 * Typed events of one stream, one per `next()`. Items are `AgentRunEvent`s,
 * plus StreamDecodeErrors when `onInvalid` is `"deliver"`.
 */
export function decodeEvents<V extends OnInvalid = "throw">(
  source: SseSource,
  options: DecodeEventsOptions & { onInvalid?: V | undefined } = {},
): AsyncIterableIterator<DecodedItemFor<V>> {
  return items(iterate(source, options, handler(options)), options.signal) as AsyncIterableIterator<DecodedItemFor<V>>;
}

/** Like decodeEvents, but one array per network chunk (never empty): the fast path. */
export function decodeEventBatches<V extends OnInvalid = "throw">(
  source: SseSource,
  options: DecodeEventsOptions & { onInvalid?: V | undefined } = {},
): AsyncIterableIterator<DecodedItemFor<V>[]> {
  return iterate(source, options, handler(options)) as AsyncIterableIterator<DecodedItemFor<V>[]>;
}
