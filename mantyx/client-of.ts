/**
 * The helpers (runAgent, answerToolCall) take either client: the all-in-one
 * `MantyxClient` (its methods), or the small `MantyxCore` with the operation
 * functions (generated/operations.ts), so a program built on the core
 * bundles the four operations the helpers call and nothing of the others.
 */
import type { MantyxCore } from "../generated/client-core.js";
import { cancelRun, createRun, postToolResult, streamRun } from "../generated/operations.js";
import type { RunnableClient } from "./run-agent.js";

/** `client` itself when it has the methods, else its operations through the operation functions. */
export function runnable(client: RunnableClient | MantyxCore): RunnableClient {
  if ("createRun" in client) return client;
  return {
    createRun: (body, options) => createRun(client, body, options),
    streamRun: (runId, options) => streamRun(client, runId, options),
    postToolResult: (runId, body, options) => postToolResult(client, runId, body, options),
    cancelRun: (runId, options) => cancelRun(client, runId, options),
  };
}
