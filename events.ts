/**
 * `@mantyx/wire-types/events`: the typed event layer alone, both halves:
 * the protocol-neutral runtime (decodeTypedEvents over any EventStreamSpec)
 * and the MANTYX event stream bound to it (decodeEvents, isTerminalEvent, …).
 * Each name is listed (test/package/entries.api.txt records them).
 */
export {
  decodeTypedEventBatches,
  decodeTypedEventMessage,
  decodeTypedEvents,
  describeIssues,
  frameShapeOf,
  isStreamDecodeError,
  isTerminalOf,
  StreamDecodeError,
  type DecodedItem,
  type DecodedItemFor,
  type DecodeEventsOptions,
  type DecodeOptions,
  type EventEnvelope,
  type EventStreamSpec,
  type FrameShape,
  type OnInvalid,
  type StreamDecodeErrorType,
  type StrictEventValidator,
  type ValidationMode,
  type WarningHandler,
} from "./runtime/events/index.js";
export {
  agentRunEventStream,
  decodeAgentRunEvents,
  decodeAgentRunEventsBatches,
  decodeAgentRunEventsMessage,
  decodeEventBatches,
  decodeEventMessage,
  decodeEvents,
  isTerminalAgentRunEvent,
  isTerminalEvent,
  type TerminalAgentRunEvent,
  type TerminalEvent,
} from "./generated/events.js";
