/**
 * The two shapes an event frame's data comes in (spec/2026-10/README.md,
 * "Frames as the official SDKs read them"):
 * - the nested envelope the documents show, `{ seq, type, data: { ... } }`;
 * - the flattened frame the official SDKs and their mocks use,
 *   `{ seq, type?, ...payload }` (payload fields beside `seq`; `type` may be
 *   absent and given only by the SSE `event:` line).
 *
 * The rule (schema/CONVENTIONS.md, "Frame shapes"): an object whose `data`
 * member is an object (not an array, not null) and that has no members but
 * `seq`, `type` and `data` is an envelope; any other object is a flattened
 * frame whose payload is every member but `seq` and `type` (so a payload
 * that gained a `data` field stays flat). The transcript validator
 * reads both by this rule; the typed event layer (runtime/events) applies
 * the same rule and also takes a missing `type` from the `event:` line.
 */

export type FrameShape = "envelope" | "flat";

/** The envelope of `value` and the shape it came in; non-objects are returned as they are (and fail validation). */
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** Whether an object reads as an envelope: its `data` an object, and no members but `seq`, `type` and `data`. */
export function isEnvelopeFrame(value: Record<string, unknown>): boolean {
  return isObject(value["data"]) && Object.keys(value).every((k) => k === "data" || k === "seq" || k === "type");
}

export function toEnvelope(value: unknown): { event: unknown; shape: FrameShape } {
  if (!isObject(value) || isEnvelopeFrame(value)) return { event: value, shape: "envelope" };
  const { seq, type, ...payload } = value;
  return { event: { seq, type, data: payload }, shape: "flat" };
}

/** The flattened frame of an envelope (for building cases): the payload's fields beside `seq` and `type` (`withType: false` leaves `type` out). */
export function toFlat(
  envelope: { seq: number; type: string; data: Record<string, unknown> },
  { withType = true }: { withType?: boolean } = {},
): Record<string, unknown> {
  const flat = { seq: envelope.seq, ...(withType ? { type: envelope.type } : {}), ...envelope.data };
  if (isEnvelopeFrame(flat))
    throw new Error(
      `A payload of one object field "data" has no flattened frame (it would read as an envelope): ${JSON.stringify(envelope)}`,
    );
  return flat;
}
