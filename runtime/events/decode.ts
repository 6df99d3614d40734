/**
 * SSE messages -> typed events: the top layer of the decoder. Protocol-
 * neutral: which validator checks an event and which types end the stream
 * come from an EventStreamSpec, which generated code builds from the schema.
 *
 * Per message: `data` is JSON-parsed and, when the spec names the payload
 * member, read in either frame shape (./frame-shape.ts: the nested envelope,
 * or the flattened `{ seq, type?, ...payload }` the official SDKs read; the
 * type from the frame, else from the SSE `event:` line), then checked with
 * the spec's validator: for generated specs the receive level, the shape
 * each type promises (schema/CONVENTIONS.md, "Two validation levels"). A
 * message that is not JSON, or not an event, becomes a StreamDecodeError,
 * handled per `onInvalid`. A documented rule that real servers break and
 * the receive level reads anyway (`x-tolerated`: the generated validator
 * fills in what the documents give, and calls the runtime's `tolerated`)
 * is reported once through `onWarning`, naming its section. Strict
 * checking is an opt-in (`strict`): the program imports the strict
 * validator and passes it, so a program that does not ask for it does not
 * bundle it.
 *
 * The iterables run on the SSE decoder's own iterators (runtime/sse/iterate.ts)
 * with a handler that decodes the messages of each chunk in one loop.
 * Iteration ends after a terminal event (the source is cancelled then: the
 * server closes the stream after it anyway), when the source ends, or when
 * the consumer stops (`break` cancels the source). Source errors, SSE
 * decoding errors and the abort reason propagate unchanged.
 */
import type { SseMessage } from "../sse/index.js";
import { type BatchHandler, items, iterate, type SseParseOptions, type SseSource } from "../sse/iterate.js";
import { toleratedNotes } from "../validation/helpers.js";
import type { ValidationIssue } from "../validation/issue.js";
import { StreamDecodeError } from "./errors.js";
import { FrameShapeStamp, toEnvelope, type FrameShape } from "./frame-shape.js";
import { isTerminalOf, type EventEnvelope, type EventStreamSpec } from "./spec.js";

/**
 * What to do with a message that is not a valid event.
 * - `"throw"` (default): the iterator throws the StreamDecodeError (after
 *   delivering the events before it).
 * - `"deliver"`: the StreamDecodeError is an item of the stream; go on.
 * - `"skip-and-warn"`: drop it, report it to `onWarning`; go on.
 */
export type OnInvalid = "throw" | "deliver" | "skip-and-warn";

/**
 * Schema checking of each event, with the spec's validator (the receive
 * level for generated specs), and, in the client, of request bodies (the
 * strict level).
 * - `"throw"` (default): an event that fails it (a required field missing, a
 *   wrong type, a tag its variant does not match) is a StreamDecodeError.
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
 * `@mantyx/wire-types/validators/agent-run-event`: whether `data` is valid,
 * with the issues of the last call in `errors`.
 */
export interface StrictEventValidator {
  (data: unknown): boolean;
  errors?: readonly ValidationIssue[] | null | undefined;
}

export interface DecodeOptions {
  /** Default `"throw"`. */
  onInvalid?: OnInvalid | undefined;
  /** Default `"throw"`. Applies to the spec's validator (the receive level). */
  validation?: ValidationMode | undefined;
  /**
   * Strict checking of events, off by default: pass the strict validator
   * (`validateAgentRunEvent`). An event that passes the spec's validator but
   * not this one is still delivered, and reported once to `onWarning` (a
   * StreamDecodeError of type `strict-only`). Not consulted with
   * `validation: "off"`.
   */
  strict?: StrictEventValidator | undefined;
  /** Default: `console.warn(message, error)`. */
  onWarning?: WarningHandler | undefined;
  /**
   * The `seq` up to which events were delivered before (a resumed stream's
   * replays): such an event is not strict-checked again, so a strict-only
   * event is reported once however often it is replayed.
   */
  seen?: number | undefined;
}

/** The SSE options (`maxEventBytes`, `onRetry`, `onComment`, `signal`) and the decoding ones. */
export interface DecodeEventsOptions extends DecodeOptions, SseParseOptions {}

export type DecodedItem<E = EventEnvelope> = E | StreamDecodeError;

/**
 * The items a stream yields for an `onInvalid` of type `V`: the events, plus
 * StreamDecodeErrors only when `onInvalid` may be `"deliver"` (with
 * `"throw"`, the default, and `"skip-and-warn"` an invalid message is never
 * an item). So `for await (const event of decodeEvents(body))` needs no
 * check before `switch (event.type)`.
 */
export type DecodedItemFor<V extends OnInvalid, E = EventEnvelope> = "deliver" extends V ? DecodedItem<E> : E;

const warn = (options: DecodeOptions, what: string, error: StreamDecodeError): void =>
  (options.onWarning ?? console.warn)(`${what}: ${error.message}`, error);

/** One SSE message -> an event of `spec` or a StreamDecodeError (never throws). */
export function decodeTypedEventMessage<E>(
  frame: SseMessage,
  spec: EventStreamSpec<E>,
  options: DecodeOptions = {},
): DecodedItem<E> {
  return readEvent(frame, spec, options, checkEvent);
}

/**
 * The schema check of an event read from `frame`, with the spec's validator as `validation` says, and the
 * strict one when given: `value` itself when it is delivered, else the StreamDecodeError. What a stream
 * without validators leaves out (./decode.ts `readEvent`).
 */
export type EventCheck = <E>(
  frame: SseMessage,
  spec: EventStreamSpec<E>,
  options: DecodeOptions,
  // biome-ignore lint/suspicious/noExplicitAny: the parsed JSON, delivered as E once it passes the check
  value: any,
  shape: FrameShape,
) => DecodedItem<E>;

/** What the stream itself relies on: `seq` to resume, `type` to detect the end. */
const hasEnvelope = (value: unknown): boolean => {
  const v = value as { type?: unknown; seq?: number } | null | undefined;
  return typeof v?.type === "string" && Number.isInteger(v.seq) && v.seq! >= 0;
};

export const checkEvent: EventCheck = (frame, spec, options, value, shape) => {
  const validate = spec.validate!;
  const { strict } = options;
  // What the receive level read anyway (a documented rule broken, `x-tolerated`): collected around this one call.
  const tolerated: ValidationIssue[] = [];
  toleratedNotes.notes = tolerated;
  let valid: boolean;
  try {
    valid = validate(value);
  } finally {
    toleratedNotes.notes = undefined;
  }
  if (valid) {
    // Reported once: not again for an event a resumed stream replays (`seen`). The strict level, which
    // refuses a tolerated rule, must judge what arrived: after the receive level filled it in, its tolerated notes stand for that.
    if (!((value as EventEnvelope).seq <= options.seen!)) {
      const failed = strict !== undefined && !strict(value);
      if (failed || tolerated.length > 0) {
        warn(
          options,
          "event delivered (fails only the strict level)",
          new StreamDecodeError(
            "strict-only",
            frame,
            failed ? [...tolerated, ...(strict.errors ?? [])] : tolerated,
            undefined,
            value,
            false,
            shape,
          ),
        );
      }
    }
    return value;
  }
  const error = new StreamDecodeError(
    "invalid-event",
    frame,
    validate.errors ?? [],
    undefined,
    value,
    isTerminalOf(spec, value),
    shape,
  );
  if (options.validation !== "warn" || !hasEnvelope(value)) return error;
  warn(options, 'event delivered (validation "warn")', error);
  return value;
};

/**
 * @internal One SSE message -> an event of `spec` or a StreamDecodeError:
 * `data` parsed and read in either frame shape, then checked by `check`
 * unless there is none (or no validator, or `validation: "off"`): then only
 * the envelope (`seq`, `type`), which resuming and terminal detection need.
 */
export function readEvent<E>(
  frame: SseMessage,
  spec: EventStreamSpec<E>,
  options: DecodeOptions,
  check?: EventCheck,
): DecodedItem<E> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame.data);
  } catch (cause) {
    return new StreamDecodeError("invalid-json", frame, [], cause);
  }
  // biome-ignore lint/suspicious/noExplicitAny: the parsed JSON, delivered as E once its envelope (or its check) holds
  const [value, shape]: [any, FrameShape] =
    spec.payload === undefined ? [parsed, "envelope"] : toEnvelope(parsed, spec.payload, frame.event);
  // A spec without a validator checks the envelope only, as "off" does.
  const item: DecodedItem<E> =
    check && spec.validate && options.validation !== "off"
      ? check(frame, spec, options, value, shape)
      : hasEnvelope(value)
        ? value
        : new StreamDecodeError(
            "invalid-event",
            frame,
            [{ instancePath: "", schemaPath: "", keyword: "required", params: {}, message: "needs seq and type" }],
            undefined,
            value,
            isTerminalOf(spec, value),
            shape,
          );
  // Delivered: its shape is recorded (no closure per event for this).
  if (item === value) new FrameShapeStamp(value, shape);
  return item;
}

/** Decodes the messages of a chunk into `out`; true (end) after a terminal event. */
const handler =
  <E>(spec: EventStreamSpec<E>, options: DecodeOptions) =>
  (messages: SseMessage[], out: DecodedItem<E>[]): ReturnType<BatchHandler<DecodedItem<E>>> => {
    for (const frame of messages) {
      const item = decodeTypedEventMessage(frame, spec, options);
      if (item instanceof StreamDecodeError) {
        const { onInvalid } = options;
        if (onInvalid === "deliver") out.push(item);
        else if (onInvalid === "skip-and-warn") warn(options, 'event skipped (onInvalid "skip-and-warn")', item);
        else throw item;
        // A malformed terminal event still ends the run: nothing follows it.
        if (item.terminal) return true;
      } else {
        out.push(item);
        if (isTerminalOf(spec, item)) return true;
      }
    }
  };

/**
 * Typed events of one stream, one per `next()`. Items are events of `spec`,
 * plus StreamDecodeErrors when `onInvalid` is `"deliver"`.
 */
export function decodeTypedEvents<E, V extends OnInvalid = "throw">(
  source: SseSource,
  spec: EventStreamSpec<E>,
  options: DecodeEventsOptions & { onInvalid?: V | undefined } = {},
): AsyncIterableIterator<DecodedItemFor<V, E>> {
  return items(iterate(source, options, handler(spec, options)), options.signal) as AsyncIterableIterator<
    DecodedItemFor<V, E>
  >;
}

/** Like decodeTypedEvents, but one array per network chunk (never empty): the fast path. */
export function decodeTypedEventBatches<E, V extends OnInvalid = "throw">(
  source: SseSource,
  spec: EventStreamSpec<E>,
  options: DecodeEventsOptions & { onInvalid?: V | undefined } = {},
): AsyncIterableIterator<DecodedItemFor<V, E>[]> {
  return iterate(source, options, handler(spec, options)) as AsyncIterableIterator<DecodedItemFor<V, E>[]>;
}
