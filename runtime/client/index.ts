/**
 * The hand-written, protocol-neutral core of generated fetch clients
 * (generated/client.ts builds on it through runtime/codegen/v1.ts).
 * Explicit exports only. The main entry (index.ts) names the part an
 * application uses; the codegen machinery here (HttpClient, the operation
 * kinds, defineOperations, ...) is public through codegen/v1 alone
 * (test/package/exports.test.ts).
 */
export { ClientCore, defineOperations } from "./define.js";
export { operation, operationFunction } from "./operation-functions.js";
export { operationExtras } from "./extras.js";
export { ClientBase } from "./client-base.js";
export { schemeCredentials } from "./credentials.js";
export {
  callOperation,
  HttpClient,
  type CredentialSender,
  type CredentialSupport,
  DEFAULT_TIMEOUT_MS,
  type CallContext,
  type CallOptions,
  type ClientOptions,
  type ClientWarningHandler,
  type OnceOutcome,
  type OnceSpec,
  type Operation,
  type OperationExtras,
  type OperationKind,
  type StatusProbe,
  type StreamOpener,
  type StreamSpec,
} from "./core.js";
export {
  ApiError,
  ConnectionError,
  isApiError,
  isConnectionError,
  isRequestValidationError,
  isUnexpectedResponseError,
  RequestValidationError,
  UnexpectedResponseError,
  type HeaderSource,
} from "./errors.js";
export type { BackoffOptions } from "./internal/backoff.js";
export { onceKind } from "./once.js";
export { checkedBody, type BodyCheck } from "./request-check.js";
export { eitherKind, isServerSentError, isStream, itemStreamKind, ServerSentError, type ItemStreamOptions } from "./item-stream.js";
export { pagesKind } from "./pages.js";
export { DEFAULT_IDLE_TIMEOUT_MS, eventStream, eventStreamKind, type ReconnectInfo, type RunEventStream, type RunStreamItem, type StreamRunOptions } from "./stream-run.js";
export { isStreamDecodeError, StreamDecodeError, type OnInvalid, type ValidationMode } from "../events/index.js";
