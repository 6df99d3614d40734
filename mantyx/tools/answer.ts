/**
 * Answering one `local_tool_call` with exactly one tool-result POST
 * (wire-protocol.md §5): what a handler gets (ToolCallContext) and how its
 * value or thrown error becomes the POST's body (`asAnswer`, `errorText`,
 * the protocol's byte limits), which the registry's dispatch (./registry.ts)
 * and `answerToolCall` (for a plain `streamRun` loop) share; and the POST
 * itself. A `409 run_terminal` or `404 unknown_tool_use` is an outcome,
 * returned, not thrown.
 */
import type { MantyxCallOptions as CallOptions, ToolResultOutcome } from "../../generated/client.js";
import type { MantyxCore } from "../../generated/client-core.js";
import { postToolResult } from "../../generated/operations.js";
import type {
  LocalToolCallData,
  LocalToolCallEvent,
  ToolResultFile,
  ToolResultRequest,
} from "../../generated/types.js";
import { isRequestValidationError } from "../../runtime/client/index.js";

/** What a handler learns about the call it serves. */
export interface ToolCallContext {
  runId: string;
  /** The `local_tool_call` data as received. */
  call: LocalToolCallData;
  /** The whole `local_tool_call` event (its `seq`, and fields a newer server adds beside `data`), when the call came from a stream. */
  event?: LocalToolCallEvent | undefined;
  /** Aborted when runAgent gives up on the run (the caller aborts, the stream is lost), or when the handler outlives `lateResultTimeoutMs` after the terminal event: runAgent always passes one. */
  signal: AbortSignal | undefined;
}

/**
 * A handler's value: a string is posted as is; anything else is JSON-encoded
 * (`undefined` posts an empty result). A thrown error is posted as the
 * tool's `error`.
 */
export type ToolHandlerResult = unknown;

/** The body of a tool-result POST, minus `toolUseId`. */
export type ToolAnswer = { result: string; files?: ToolResultFile[] } | { error: string };

const WITH_FILES: unique symbol = Symbol("mantyx.toolResultWithFiles");

/** A handler value carrying files (wire-protocol.md §5: up to 20, base64, ≤ 5 MB decoded in total). */
export interface ToolResultWithFiles {
  readonly [WITH_FILES]: true;
  readonly result: string;
  readonly files: ToolResultFile[];
}

/** Return this from a handler to post `files` with the text result (they are surfaced to the model as file parts). */
export function withFiles(result: string, files: ToolResultFile[]): ToolResultWithFiles {
  return { [WITH_FILES]: true, result, files };
}

/** `error` is at most 8 KB, `result` at most 2 MB of UTF-8 (wire-protocol.md §5). */
export const MAX_ERROR_BYTES = 8 * 1024;
export const MAX_RESULT_BYTES = 2 * 1024 * 1024;

const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();

/** `text` cut to at most `maxBytes` of UTF-8 on a character boundary, marked with "…" when cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  // Fast path: every UTF-16 unit is at most 3 UTF-8 bytes.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes - 3; // room for "…" (3 bytes)
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not inside a character
  return `${decoder.decode(bytes.subarray(0, end))}…`;
}

function utf8Length(text: string): number {
  return text.length * 3 <= MAX_RESULT_BYTES ? 0 : encoder.encode(text).length;
}

/** @internal A thrown value as the text of a tool's `error`. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** @internal A handler's value as the body of its tool-result POST (minus `toolUseId`): see ToolHandlerResult. */
export function asAnswer(value: unknown): ToolAnswer {
  if (typeof value === "object" && value !== null && (value as Partial<ToolResultWithFiles>)[WITH_FILES] === true) {
    const v = value as ToolResultWithFiles;
    const answer = asAnswer(v.result);
    return "result" in answer ? { result: answer.result, files: v.files } : answer;
  }
  let text: string;
  if (typeof value === "string") text = value;
  else if (value === undefined) text = "";
  else {
    try {
      text = JSON.stringify(value) ?? "";
    } catch (e) {
      return {
        error: truncateUtf8(`The tool returned a value that cannot be JSON-encoded: ${errorText(e)}`, MAX_ERROR_BYTES),
      };
    }
  }
  if (utf8Length(text) > MAX_RESULT_BYTES) {
    return {
      error: `The tool's result is larger than ${MAX_RESULT_BYTES} bytes, the protocol's limit; return less, or upload it and return a link.`,
    };
  }
  return { result: text };
}

/** MCP CallToolResult -> answer: text blocks joined with "\n"; `isError` -> error. */
export function mcpAnswer(value: unknown): ToolAnswer {
  const v = value as { content?: unknown; isError?: unknown } | null;
  if (typeof v !== "object" || v === null || !Array.isArray(v.content)) return asAnswer(value);
  const text = (v.content as Array<{ type?: unknown; text?: unknown }>)
    .filter((b) => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n");
  return v.isError === true
    ? { error: truncateUtf8(text || "The MCP tool reported an error.", MAX_ERROR_BYTES) }
    : asAnswer(text);
}

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
export async function postToolAnswer(
  client: ToolResultPoster,
  runId: string,
  toolUseId: string,
  reply: ToolAnswer,
  options?: CallOptions,
): Promise<ToolResultOutcome> {
  try {
    return await client.postToolResult(runId, { toolUseId, ...reply }, options);
  } catch (error) {
    if (!isRequestValidationError(error) || "error" in reply) throw error;
    return client.postToolResult(
      runId,
      { toolUseId, error: truncateUtf8(`The tool's answer could not be sent: ${error.message}`, MAX_ERROR_BYTES) },
      options,
    );
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
    reply = asAnswer(
      await handler(data.args as Record<string, unknown>, { runId, call: data, event, signal: options.signal }),
    );
  } catch (error) {
    reply = { error: truncateUtf8(errorText(error), MAX_ERROR_BYTES) };
  }
  // A MantyxCore posts through the operation function.
  const poster =
    "postToolResult" in client
      ? client
      : {
          postToolResult: (id: string, body: ToolResultRequest, o?: CallOptions) => postToolResult(client, id, body, o),
        };
  return postToolAnswer(poster, runId, data.toolUseId, reply, options);
}
