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
export { callOperation, HttpClient, DEFAULT_TIMEOUT_MS, type CallContext, type OperationKind } from "./core.js";
export type {
  BodyCheck,
  CredentialSender,
  CredentialSupport,
  CallOptions,
  ClientOptions,
  ClientWarningHandler,
  OnceOutcome,
  OnceSpec,
  Operation,
  OperationExtras,
  ReconnectInfo,
  StatusProbe,
  StreamOpener,
  StreamRunOptions,
  StreamSpec,
} from "./operation.js";
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
export { checkedBody } from "./request-check.js";
export {
  eitherKind,
  isServerSentError,
  isStream,
  itemStreamKind,
  ServerSentError,
  type ItemStreamOptions,
} from "./item-stream.js";
export { pagesKind } from "./pages.js";
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  eventStream,
  eventStreamKind,
  type RunEventStream,
  type RunStreamItem,
} from "./stream-run.js";
export { isStreamDecodeError, StreamDecodeError, type OnInvalid, type ValidationMode } from "../events/index.js";
