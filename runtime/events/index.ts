/**
 * Typed MANTYX event stream: SSE messages -> validated protocol events.
 * Explicit exports only: this list is the public surface.
 */
export {
  decodeEventBatches,
  decodeEventMessage,
  decodeEvents,
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
export { failureMessage, isTerminalEvent, runOutcome, type RunOutcome, type TerminalEvent } from "./terminal.js";
