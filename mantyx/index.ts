/**
 * The hand-written MANTYX helpers, layer 3: built on the generated client
 * and types (layer 2) and the runtime (layer 1), never imported by them.
 * The agent loop (`runAgent`), the tool registry, `parseStructuredOutput`
 * and run outcomes. Each is standalone: a program bundles it only when it
 * imports it. Explicit exports only: this list is the public surface.
 */
export { candidatesOf, rateLimitOf, requiredScopesOf, type RateLimit } from "./api-errors.js";
export { isMantyxApiError, isMantyxConnectionError, MantyxApiError, MantyxConnectionError } from "./errors.js";
export { failureMessage, runOutcome, type RunOutcome } from "./outcome.js";
export {
  DEFAULT_LATE_RESULT_TIMEOUT_MS,
  runAgent,
  withTools,
  type RunnableClient,
  type RunOptions,
  type ToolDispatcher,
} from "./run-agent.js";
export { isRunCreatedError, RunCreatedError, type RunCreatedErrorType } from "./run-created.js";
export {
  isOutputParseError,
  OutputParseError,
  parseStructuredOutput,
  type OutputParseErrorType,
  type OutputValidator,
} from "./structured-output.js";
export {
  answerToolCall,
  MAX_ERROR_BYTES,
  MAX_RESULT_BYTES,
  postToolAnswer,
  truncateUtf8,
  withFiles,
  type ToolAnswer,
  type ToolCallContext,
  type ToolResultPoster,
  type ToolResultWithFiles,
} from "./tools/answer.js";
export { checkJsonSchema, type ArgIssue } from "./tools/json-schema.js";
export {
  ToolRegistry,
  type A2aPeerDefinition,
  type ArgsValidator,
  type FallbackHandler,
  type LocalToolDefinition,
  type McpCall,
  type McpServerDefinition,
  type ToolRegistryOptions,
} from "./tools/registry.js";
export type { StandardJsonSchema, StandardResult } from "./tools/standard-schema.js";
export {
  AGENT_CARD_PATH,
  fetchAgentCard,
  mcpServerFrom,
  ToolResolutionError,
  type FetchAgentCardOptions,
  type McpClientLike,
} from "./tools/resolve.js";
