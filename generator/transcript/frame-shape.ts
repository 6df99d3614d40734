/**
 * The two shapes an event frame's data comes in (spec/2026-10/README.md,
 * "Frames as the official SDKs read them"):
 * - the nested envelope the documents show, `{ seq, type, data: { ... } }`;
 * - the flattened frame the official SDKs and their mocks use,
 *   `{ seq, type?, ...payload }` (payload fields beside `seq`; `type` may be
 *   absent and given only by the SSE `event:` line).
 *
 * The rule (schema/CONVENTIONS.md, "Frame shapes"): an object with its own
 * `data` member is an envelope; any other object is a flattened frame whose
 * payload is every member but `seq` and `type`. The transcript validator
 * reads both by this rule; the typed event layer (runtime/events) applies
 * the same rule and also takes a missing `type` from the `event:` line.
 */

export type FrameShape = "envelope" | "flat";

/** The envelope of `value` and the shape it came in; non-objects are returned as they are (and fail validation). */
export function toEnvelope(value: unknown): { event: unknown; shape: FrameShape } {
  if (value === null || typeof value !== "object" || Array.isArray(value) || Object.prototype.hasOwnProperty.call(value, "data")) return { event: value, shape: "envelope" };
  const { seq, type, ...payload } = value as Record<string, unknown>;
  return { event: { seq, type, data: payload }, shape: "flat" };
}

/** The flattened frame of an envelope (for building cases): the payload's fields beside `seq` and `type` (`withType: false` leaves `type` out). */
export function toFlat(envelope: { seq: number; type: string; data: Record<string, unknown> }, { withType = true }: { withType?: boolean } = {}): Record<string, unknown> {
  if (Object.prototype.hasOwnProperty.call(envelope.data, "data")) throw new Error(`A payload with a "data" field has no flattened frame (it would read as an envelope): ${JSON.stringify(envelope)}`);
  return { seq: envelope.seq, ...(withType ? { type: envelope.type } : {}), ...envelope.data };
}
