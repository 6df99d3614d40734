/**
 * Answering one `local_tool_call` with exactly one tool-result POST
 * (wire-protocol.md §5): from a ToolAnswer (the registry's dispatch), or
 * from a handler's return value or thrown error (`answerToolCall`, for a
 * plain `streamRun` loop). A `409 run_terminal` or `404 unknown_tool_use`
 * is an outcome, returned, not thrown.
 */
import type { MantyxCallOptions as CallOptions, ToolResultOutcome } from "../../generated/client.js";
import type { MantyxCore } from "../../generated/client-core.js";
import { postToolResult } from "../../generated/operations.js";
import type { LocalToolCallData, LocalToolCallEvent, ToolResultRequest } from "../../generated/types.js";
import { isRequestValidationError } from "../../runtime/client/index.js";
import { asAnswer, errorText, MAX_ERROR_BYTES, truncateUtf8, type ToolAnswer, type ToolCallContext, type ToolHandlerResult } from "./registry.js";

/** What posting a tool result needs of a client (the generated MantyxClient has it). */
export interface ToolResultPoster {
  postToolResult(runId: string, body: ToolResultRequest, options?: CallOptions): Promise<ToolResultOutcome>;
}

/**
 * POSTs `reply` for the call. When the answer fails the tool-result schema
 * (more than 20 files, too many bytes of them, …) nothing was sent and the
 * call is still owed its one POST, so the reason is posted as the tool's
 * error instead, for the model to read.
 */
export async function postToolAnswer(client: ToolResultPoster, runId: string, toolUseId: string, reply: ToolAnswer, options?: CallOptions): Promise<ToolResultOutcome> {
  try {
    return await client.postToolResult(runId, { toolUseId, ...reply }, options);
  } catch (error) {
    if (!isRequestValidationError(error) || "error" in reply) throw error;
    return client.postToolResult(runId, { toolUseId, error: truncateUtf8(`The tool's answer could not be sent: ${error.message}`, MAX_ERROR_BYTES) }, options);
  }
}

/**
 * Runs `handler` for a `local_tool_call` read from `streamRun` and POSTs
 * what it gives: a string as is, anything else JSON-encoded, `withFiles(…)`
 * with its files; a thrown error (or rejection) as the tool's `error`. No
 * `{ toolUseId, result | error }` to build by hand. The handler gets the
 * call's arguments and the context a registry handler gets (the event, the
 * run, `signal`). Resolves with the POST's outcome; rejects only when the
 * POST itself fails (network, 401, …).
 *
 * ```ts
 * for await (const event of client.streamRun(runId)) {
 *   if (event.type === "local_tool_call") void answerToolCall(client, runId, event, (args) => lookUp(args));
 * }
 * ```
 */
export async function answerToolCall(
  client: ToolResultPoster | MantyxCore,
  runId: string,
  call: LocalToolCallEvent | LocalToolCallData,
  handler: (args: Record<string, unknown>, context: ToolCallContext) => ToolHandlerResult | Promise<ToolHandlerResult>,
  options: CallOptions = {},
): Promise<ToolResultOutcome> {
  const event = "type" in call && call.type === "local_tool_call" ? (call as LocalToolCallEvent) : undefined;
  const data = event?.data ?? (call as LocalToolCallData);
  let reply: ToolAnswer;
  try {
    reply = asAnswer(await handler(data.args as Record<string, unknown>, { runId, call: data, event, signal: options.signal }));
  } catch (error) {
    reply = { error: truncateUtf8(errorText(error), MAX_ERROR_BYTES) };
  }
  // A MantyxCore posts through the operation function.
  const poster = "postToolResult" in client ? client : { postToolResult: (id: string, body: ToolResultRequest, o?: CallOptions) => postToolResult(client, id, body, o) };
  return postToolAnswer(poster, runId, data.toolUseId, reply, options);
}
