/**
 * The two shapes an event frame's data comes in (schema/CONVENTIONS.md,
 * "Frame shapes"), read into the one envelope the schema describes. For
 * MANTYX, whose payload member is `data`:
 * - the nested envelope the documents show, `{ seq, type, data: { ... } }`;
 * - the flattened frame the official SDKs and their mocks use,
 *   `{ seq, type?, ...payload }`, `type` sometimes only on the `event:` line.
 *
 * An object is an envelope when its payload member is an object (not an
 * array, not null) and it has no members but `seq`, `type` and that one;
 * any other object is flattened, its payload every member but `seq` and
 * `type`. So a flat frame whose payload gained a member of that name (an
 * additive field) stays flat. The type is the frame's, else the `event:`
 * line's, unless that is the SSE default `message` (which names no type).
 * Which member holds the payload is the stream spec's `payload` (./spec.ts):
 * nothing here names a protocol.
 */

/** The shape a frame's data came in. */
export type FrameShape = "envelope" | "flat";

const DEFAULT_EVENT_TYPE = "message";

/**
 * The envelope of a frame's parsed data (`payload`: the envelope member
 * holding the payload) and the shape it came in. A value
 * that is not an object is returned as it is (the schema check rejects it).
 * Never mutates `value`.
 */
/** A JSON object (not an array, not null). */
const isObject = (value: unknown): boolean => Object(value) === value && !Array.isArray(value);

export function toEnvelope(
  value: unknown,
  payload: string,
  eventLine: string = DEFAULT_EVENT_TYPE,
): [envelope: unknown, shape: FrameShape] {
  if (!isObject(value)) return [value, "envelope"];
  const frame = value as Record<string, unknown>;
  const typeFromLine = frame["type"] === undefined && eventLine !== DEFAULT_EVENT_TYPE;
  let nested = isObject(frame[payload]);
  for (const key in frame) nested &&= key == payload || key == "seq" || key == "type";
  if (nested) return [typeFromLine ? { ...frame, type: eventLine } : frame, "envelope"];
  const { seq, type, ...fields } = frame;
  return [{ seq, type: typeFromLine ? eventLine : type, [payload]: fields }, "flat"];
}

/**
 * @internal `new FrameShapeStamp(event, shape)` records the shape `event`
 * was read from, once per event (each is a fresh object), as a private
 * field stamped on it: the base constructor returns the event, so the
 * field is added to the event. Invisible to the event's readers (keys,
 * spread, JSON, structuredClone, equality) and nearly free, where a WeakMap
 * entry per event cost ~1.5 µs, most of it the garbage collector's
 * ephemeron work: a third of the decode path. (A value that is not an
 * object has nothing to record: the base's return of it is ignored and a
 * new object is stamped.)
 */
// biome-ignore lint/complexity/useArrowFunction: the base is called with `super`, so it must be a constructor (an arrow is not)
export class FrameShapeStamp extends (function (event: object) {
  return event;
} as unknown as new (
  event: object,
) => object) {
  #shape: FrameShape;
  constructor(event: unknown, shape: FrameShape) {
    super(event as object);
    this.#shape = shape;
  }
  static of(event: object): FrameShape | undefined {
    return #shape in event ? (event as FrameShapeStamp).#shape : undefined;
  }
}

/**
 * The frame shape a delivered event was read from: `"envelope"` (nested
 * `data`) or `"flat"` (payload beside `seq`); `undefined` for an object
 * this event layer did not decode.
 */
export function frameShapeOf(event: object): FrameShape | undefined {
  return Object(event) === event ? FrameShapeStamp.of(event) : undefined;
}
