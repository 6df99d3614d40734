/**
 * The two shapes an event frame's data comes in (schema/CONVENTIONS.md,
 * "Frame shapes"), read into the one envelope the schema describes. For
 * MANTYX, whose payload member is `data`:
 * - the nested envelope the documents show, `{ seq, type, data: { ... } }`;
 * - the flattened frame the official SDKs and their mocks use,
 *   `{ seq, type?, ...payload }`, `type` sometimes only on the `event:` line.
 *
 * JSON with its own payload member is an envelope; any other object is
 * flattened, its payload every member but `seq` and `type`. The type is the
 * frame's, else the `event:` line's, unless that is the SSE default
 * `message` (which names no type). Which member holds the payload is the
 * stream spec's `payload` (./spec.ts): nothing here names a protocol.
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
export function toEnvelope(value: unknown, payload: string, eventLine: string = DEFAULT_EVENT_TYPE): { envelope: unknown; shape: FrameShape } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { envelope: value, shape: "envelope" };
  const frame = value as Record<string, unknown>;
  const typeFromLine = frame["type"] === undefined && eventLine !== DEFAULT_EVENT_TYPE;
  if (Object.prototype.hasOwnProperty.call(frame, payload)) return { envelope: typeFromLine ? { ...frame, type: eventLine } : frame, shape: "envelope" };
  const { seq, type, ...fields } = frame;
  return { envelope: { seq, type: typeFromLine ? eventLine : type, [payload]: fields }, shape: "flat" };
}

/** Shapes of the events this module delivered, without touching the event objects. */
const shapes = new WeakMap<object, FrameShape>();

/** @internal Records the shape `event` was read from. */
export function recordFrameShape(event: unknown, shape: FrameShape): void {
  if (event !== null && typeof event === "object") shapes.set(event, shape);
}

/**
 * The frame shape a delivered event was read from: `"envelope"` (nested
 * `data`) or `"flat"` (payload beside `seq`); `undefined` for an object
 * this event layer did not decode.
 */
export function frameShapeOf(event: object): FrameShape | undefined {
  return shapes.get(event);
}
