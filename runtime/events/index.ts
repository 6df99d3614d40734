/**
 * Typed event streams: SSE messages -> validated events of a stream whose
 * shape an EventStreamSpec gives (generated code builds one per streamed
 * operation). Explicit exports only: this list is the public surface.
 */
export {
  decodeTypedEventBatches,
  decodeTypedEventMessage,
  decodeTypedEvents,
  type DecodedItem,
  type DecodedItemFor,
  type DecodeEventsOptions,
  type DecodeOptions,
  type OnInvalid,
  type StrictEventValidator,
  type ValidationMode,
  type WarningHandler,
} from "./decode.js";
export { describeIssues, isStreamDecodeError, StreamDecodeError, type StreamDecodeErrorType } from "./errors.js";
export { frameShapeOf, type FrameShape } from "./frame-shape.js";
export { isTerminalOf, type EventEnvelope, type EventStreamSpec } from "./spec.js";
