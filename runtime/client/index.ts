/**
 * The hand-written core of the MANTYX fetch client (generated/client.ts
 * builds on it). Explicit exports only: this list is the public surface.
 */
export { ClientCore, type ApiResponse, type CallOptions, type ClientOptions, type ClientWarningHandler, type OperationInfo, type RequestArgs } from "./core.js";
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  isMantyxApiError,
  isRequestValidationError,
  MantyxApiError,
  MantyxConnectionError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  UnexpectedResponseError,
  type ApiErrorFields,
  type HeaderSource,
} from "./errors.js";
export { checkBody, type BodyCheck, type FieldCheck } from "./request-check.js";
export { runAgent, withTools, type RunnableClient, type RunOptions, type ToolDispatcher } from "./run.js";
export { RunEventStream, type ReconnectInfo, type RunStreamItem, type StreamRunOptions } from "./stream-run.js";
export { isOutputParseError, OutputParseError, parseStructuredOutput, type OutputParseErrorType, type OutputValidator } from "./structured-output.js";
export { ledgerKey, postToolResultOnce, ToolResultLedger, type ToolResultOutcome } from "./tool-results.js";
export { checkJsonSchema, type ArgIssue } from "./tools/json-schema.js";
export {
  MAX_ERROR_BYTES,
  MAX_RESULT_BYTES,
  ToolRegistry,
  truncateUtf8,
  withFiles,
  type A2aPeerDefinition,
  type ArgsValidator,
  type LocalToolDefinition,
  type McpCall,
  type McpServerDefinition,
  type ToolAnswer,
  type ToolCallContext,
  type ToolRegistryOptions,
  type ToolResultWithFiles,
} from "./tools/registry.js";
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
