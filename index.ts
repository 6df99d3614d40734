/**
 * `@mantyx/wire-types`, the package's main entry: the generated MANTYX
 * client and event streams (layer 2), the runtime they stand on (layer 1:
 * the client's options and errors, the SSE decoder, the typed event layer),
 * the MANTYX helpers (layer 3: runAgent, ToolRegistry, …) and every protocol
 * type. Each name is listed: every one is a semver promise, and
 * test/package/exports.test.ts compares them with the checked-in report
 * test/package/entries.api.txt, so an addition is a decision, not an
 * accident.
 * Validators are a separate entry (`@mantyx/wire-types/validators`) so that
 * importing the client never pulls them all in; bundlers drop what is not
 * used from here (`"sideEffects": false`). Generated code imports the
 * runtime through `@mantyx/wire-types/codegen/v1`, not through this entry;
 * the machinery only it calls (`HttpClient`, `defineOperations`, the
 * operation kinds, …) is exported there alone.
 */
export {
  CLIENT_VERSION,
  MantyxClient,
  MantyxCore,
  operations,
  type MantyxCallOptions,
  type MantyxClientOptions,
  type MantyxStreamOptions,
  type ToolResultOutcome,
} from "./generated/client.js";
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
// The client runtime as an application meets it: options, errors, streams.
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  ApiError,
  ConnectionError,
  isApiError,
  isConnectionError,
  isRequestValidationError,
  isServerSentError,
  isStream,
  isUnexpectedResponseError,
  RequestValidationError,
  ServerSentError,
  UnexpectedResponseError,
  type BackoffOptions,
  type CallOptions,
  type ClientOptions,
  type ClientWarningHandler,
  type HeaderSource,
  type ItemStreamOptions,
  type ReconnectInfo,
  type RunEventStream,
  type RunStreamItem,
  type StreamRunOptions,
} from "./runtime/client/index.js";
export {
  createSseParser,
  DEFAULT_MAX_EVENT_BYTES,
  isSseParseError,
  parseSse,
  parseSseBatches,
  SseParseError,
  type SseMessage,
  type SseParseErrorType,
  type SseParseOptions,
  type SseParser,
  type SseParserCallbacks,
  type SseSource,
} from "./runtime/sse/index.js";
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
  AGENT_CARD_PATH,
  answerToolCall,
  candidatesOf,
  checkJsonSchema,
  DEFAULT_LATE_RESULT_TIMEOUT_MS,
  failureMessage,
  fetchAgentCard,
  isMantyxApiError,
  isMantyxConnectionError,
  isOutputParseError,
  isRunCreatedError,
  MantyxApiError,
  MantyxConnectionError,
  MAX_ERROR_BYTES,
  MAX_RESULT_BYTES,
  mcpServerFrom,
  OutputParseError,
  parseStructuredOutput,
  postToolAnswer,
  rateLimitOf,
  requiredScopesOf,
  runAgent,
  RunCreatedError,
  runOutcome,
  ToolRegistry,
  ToolResolutionError,
  truncateUtf8,
  withFiles,
  withTools,
  type A2aPeerDefinition,
  type ArgIssue,
  type ArgsValidator,
  type FallbackHandler,
  type FetchAgentCardOptions,
  type LocalToolDefinition,
  type McpCall,
  type McpClientLike,
  type McpServerDefinition,
  type OutputParseErrorType,
  type OutputValidator,
  type RateLimit,
  type RunCreatedErrorType,
  type RunnableClient,
  type RunOptions,
  type RunOutcome,
  type StandardJsonSchema,
  type StandardResult,
  type ToolAnswer,
  type ToolCallContext,
  type ToolDispatcher,
  type ToolRegistryOptions,
  type ToolResultPoster,
  type ToolResultWithFiles,
} from "./mantyx/index.js";
// Every protocol type: the schema's components (generated/types.ts, the same list as `@mantyx/wire-types/types`).
// Types only, so nothing of the runtime leaks through this line; the schema names them, and `npm run diff:baseline`
// reviews every change of that list.
export type * from "./generated/types.js";
