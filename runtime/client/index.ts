/**
 * The hand-written core of the MANTYX fetch client (generated/client.ts
 * builds on it). Explicit exports only: this list is the public surface.
 * The agent loop (`runAgent`), the tool registry and `parseStructuredOutput`
 * are standalone: a program bundles them only when it imports them.
 */
export {
  ClientCore,
  DEFAULT_TIMEOUT_MS,
  EMPTY_OK,
  IDEMPOTENT,
  STREAM,
  TOOL_RESULT,
  type CallOptions,
  type ClientOptions,
  type ClientWarningHandler,
  type Operation,
  type StreamOpener,
  type ToolResultOutcome,
} from "./core.js";
export {
  isMantyxApiError,
  isMantyxConnectionError,
  isRequestValidationError,
  isUnexpectedResponseError,
  MantyxApiError,
  MantyxConnectionError,
  RequestValidationError,
  UnexpectedResponseError,
  type HeaderSource,
} from "./errors.js";
export type { BackoffOptions } from "./internal/backoff.js";
export type { BodyCheck } from "./request-check.js";
export { DEFAULT_LATE_RESULT_TIMEOUT_MS, runAgent, withTools, type RunnableClient, type RunOptions, type ToolDispatcher } from "./run.js";
export { DEFAULT_IDLE_TIMEOUT_MS, type ReconnectInfo, type RunEventStream, type RunStreamItem, type StreamRunOptions } from "./stream-run.js";
export { answerToolCall, type ToolResultPoster } from "./tools/answer.js";
export { isOutputParseError, OutputParseError, parseStructuredOutput, type OutputParseErrorType, type OutputValidator } from "./structured-output.js";
export { checkJsonSchema, type ArgIssue } from "./tools/json-schema.js";
export {
  MAX_ERROR_BYTES,
  MAX_RESULT_BYTES,
  ToolRegistry,
  truncateUtf8,
  withFiles,
  type A2aPeerDefinition,
  type ArgsValidator,
  type FallbackHandler,
  type LocalToolDefinition,
  type McpCall,
  type McpServerDefinition,
  type StandardJsonSchema,
  type StandardResult,
  type ToolAnswer,
  type ToolCallContext,
  type ToolRegistryOptions,
  type ToolResultWithFiles,
} from "./tools/registry.js";
export { AGENT_CARD_PATH, fetchAgentCard, mcpServerFrom, ToolResolutionError, type FetchAgentCardOptions, type McpClientLike } from "./tools/resolve.js";
export {
  isStreamDecodeError,
  isTerminalEvent,
  runOutcome,
  StreamDecodeError,
  type OnInvalid,
  type RunOutcome,
  type TerminalEvent,
  type ValidationMode,
} from "../events/index.js";
