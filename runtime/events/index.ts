/**
 * Typed MANTYX event stream: SSE messages -> validated protocol events.
 * Explicit exports only: this list is the public surface.
 */
export { decodeEventMessage, type DecodedItem, type DecodeOptions, type OnInvalid, type ValidationMode, type WarningHandler } from "./decode.js";
export { describeIssues, isStreamDecodeError, StreamDecodeError, type StreamDecodeErrorType } from "./errors.js";
export { decodeEventBatches, decodeEvents, type DecodeEventsOptions } from "./event-stream.js";
export { failureMessage, isTerminalEvent, runOutcome, type RunOutcome, type TerminalEvent } from "./terminal.js";
