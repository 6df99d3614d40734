/**
 * `runAgent(client, spec, { tools })`: a whole run in one call — create it,
 * read its stream (with resume), answer each `local_tool_call` through the
 * tool registry, and resolve with the terminal event (wire-protocol.md §1,
 * §13). A standalone function, not a client method, so a program that does
 * not use it does not bundle it.
 *
 * Tool calls run concurrently (a turn may call several tools, and the server
 * waits for all of them), each answered by exactly one POST — also a call
 * whose handler finishes after the terminal event (the server timed it
 * out): the helper waits for such handlers (`lateResultTimeoutMs`), posts
 * each real answer, reports its outcome (a `409 run_terminal`, normally) to
 * `onToolResult`, and only then resolves. It never posts an answer the
 * handler did not give: a handler still running past that bound, or when
 * the caller aborts, gets its signal aborted and nothing is posted for it.
 *
 * When the helper gives up on the run — the caller aborts `signal`, a
 * tool-result POST fails outright (not a normal outcome such as
 * `run_terminal`), or the stream fails for good (reconnects exhausted, a
 * fatal answer, an invalid event with `onInvalid: "throw"`) — it POSTs a
 * best-effort cancel, so the run does not go on (and bill) without anyone
 * reading it (unless `cancelOnFailure: false`), then rejects with the
 * original error.
 */
import type { MantyxCallOptions, MantyxStreamOptions, ToolResultOutcome } from "../generated/client.js";
import type { MantyxCore } from "../generated/client-core.js";
import { isTerminalEvent, type TerminalEvent } from "../generated/events.js";
import type {
  AgentRunEvent,
  LocalToolCallData,
  LocalToolCallEvent,
  RunCreateRequest,
  RunCreateResponse,
  ToolRef,
  ToolResultRequest,
} from "../generated/types.js";
import {
  isApiError as isMantyxApiError,
  StreamDecodeError,
  type OnInvalid,
  type RunEventStream,
  type RunStreamItem,
} from "../runtime/client/index.js";
import { linked, sleep } from "../runtime/client/internal/backoff.js";
import type { DecodedItemFor } from "../runtime/events/index.js";
import { runnable } from "./client-of.js";
import { runIdOf } from "./run-created.js";
import { postToolAnswer, type ToolAnswer, type ToolCallContext } from "./tools/answer.js";

type CallOptions = MantyxCallOptions;
type StreamRunOptions = MantyxStreamOptions;

/** What the run helper needs of a client (the generated MantyxClient has it; a MantyxCore gets it from the operation functions, ./client-of.ts). */
export interface RunnableClient {
  createRun(body: RunCreateRequest, options?: CallOptions): Promise<RunCreateResponse>;
  streamRun(runId: string, options?: StreamRunOptions): RunEventStream<RunStreamItem<AgentRunEvent>, TerminalEvent>;
  postToolResult(runId: string, body: ToolResultRequest, options?: CallOptions): Promise<ToolResultOutcome>;
  cancelRun(runId: string, options?: CallOptions): Promise<unknown>;
}

/**
 * What the run helper needs of a tool registry (ToolRegistry has it). An
 * interface, so a run without tools does not bundle the registry and its
 * JSON Schema checker.
 */
export interface ToolDispatcher {
  toolRefs(): ToolRef[];
  dispatch(call: LocalToolCallData, context: Omit<ToolCallContext, "call">): Promise<ToolAnswer>;
  /** The key an `a2a_local` peer is dispatched by (its Agent Card's `url` by default). */
  peerKey?(card: Extract<ToolRef, { kind: "a2a_local" }>["agentCard"]): string | undefined;
}

/** Without a registry, every tool call is answered with an error the model can read. */
const NO_TOOLS: ToolDispatcher = {
  toolRefs: () => [],
  dispatch: async (call) => ({ error: `This client registered no tools; it cannot run ${JSON.stringify(call.name)}.` }),
};

/** What a late tool result's 404 and 409 are (the schema's `x-outcomes` of postToolResult), whatever code the body names. */
const LATE_OUTCOMES: Record<number, "unknown_tool_use" | "run_terminal"> = {
  404: "unknown_tool_use",
  409: "run_terminal",
};

/** Default `lateResultTimeoutMs`: how long handlers still running at the terminal event may take to finish. */
export const DEFAULT_LATE_RESULT_TIMEOUT_MS = 60_000;

export interface RunOptions<V extends OnInvalid = "throw"> extends StreamRunOptions {
  /** A message that is not a valid event: `"throw"` (default), `"deliver"` it to onEvent as a StreamDecodeError, or `"skip-and-warn"`. */
  onInvalid?: V | undefined;
  /** Client-resolved tools (a ToolRegistry): declared in the spec and answered when called. */
  tools?: ToolDispatcher | undefined;
  /** Sees every stream item, in order (awaited before the next one); StreamDecodeErrors only with `onInvalid: "deliver"`. */
  onEvent?: ((item: DecodedItemFor<V, AgentRunEvent>) => void | Promise<void>) | undefined;
  /**
   * Called with each tool call's POST outcome, also for a call answered
   * after the terminal event (`late: true`; the outcome is then normally
   * `run_terminal`, a normal ending: the server had timed the call out).
   */
  onToolResult?: ((call: LocalToolCallData, outcome: ToolResultOutcome, info: { late: boolean }) => void) | undefined;
  /**
   * After the terminal event, how long to wait for handlers still running
   * so their answers are posted (exactly one POST per call, §5). Past it
   * they are aborted and nothing is posted for them. Default 60 000.
   */
  lateResultTimeoutMs?: number | undefined;
  /**
   * When the helper gives up on the run (abort, a failed tool-result POST,
   * the stream lost for good), POST cancel for it, best effort, before
   * rejecting with the original error. Default true.
   */
  cancelOnFailure?: boolean | undefined;
}

/** Same tool as the registry dispatches it: `a2a_local` by Agent Card key, others by name. */
function sameTool(a: ToolRef, b: ToolRef, registry: ToolDispatcher): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "a2a_local" && b.kind === "a2a_local") {
    const keyOf = (card: typeof a.agentCard): string | undefined =>
      registry.peerKey !== undefined ? registry.peerKey(card) : card.url;
    const key = keyOf(a.agentCard);
    return key !== undefined && key === keyOf(b.agentCard);
  }
  return (a as { name?: unknown }).name === (b as { name?: unknown }).name;
}

/**
 * The spec with the registry's tool refs appended, except those the spec
 * already declares (the same local tool or MCP server by name, the same A2A
 * peer by its Agent Card key, whatever its tool name).
 */
export function withTools(spec: RunCreateRequest, registry: ToolDispatcher | undefined): RunCreateRequest {
  if (registry === undefined) return spec;
  const declared = (spec as { tools?: ToolRef[] }).tools ?? [];
  const added = registry.toolRefs().filter((ref) => !declared.some((d) => sameTool(d, ref, registry)));
  return added.length === 0 ? spec : ({ ...spec, tools: [...declared, ...added] } as RunCreateRequest);
}

export async function runAgent<V extends OnInvalid = "throw">(
  on: RunnableClient | MantyxCore,
  spec: RunCreateRequest,
  options: RunOptions<V> = {},
): Promise<TerminalEvent> {
  const client = runnable(on);
  const {
    tools,
    onEvent,
    onToolResult,
    cancelOnFailure = true,
    lateResultTimeoutMs = DEFAULT_LATE_RESULT_TIMEOUT_MS,
    ...streamOptions
  } = options;
  const registry = tools ?? NO_TOOLS;
  const call: CallOptions = {};
  if (options.signal !== undefined) call.signal = options.signal;
  if (options.workspace !== undefined) call.workspace = options.workspace;
  if (options.headers !== undefined) call.headers = options.headers;
  if (options.timeoutMs !== undefined) call.timeoutMs = options.timeoutMs;
  // A `null` or `{}` answer is a typed RunCreatedError here, not a TypeError later (there is no run to cancel).
  const runId = runIdOf(await client.createRun(withTools(spec, tools), call));

  // Our own signal: aborted by the caller's, by a failed tool-result POST,
  // or when handlers outlive `lateResultTimeoutMs`. Handlers and POSTs run under it.
  const controller = linked(options.signal);
  let postFailure: { error: unknown } | undefined;
  /** The terminal event has been read: answers from now on are late. */
  let ended = false;
  /** Tool calls seen, by toolUseId: a call delivered twice (say, under another seq) runs once. Each maps to its answer's task. */
  const tasks = new Map<string, Promise<void>>();
  const answer = (event: LocalToolCallEvent): void => {
    const data = event.data;
    if (tasks.has(data.toolUseId)) return;
    const task = (async () => {
      const reply = await registry.dispatch(data, { runId, event, signal: controller.signal });
      // The helper gave up (the caller aborted, a POST failed, or the late bound passed): never post after that.
      if (controller.signal.aborted) return;
      const late = ended;
      const outcome = await postToolAnswer(client, runId, data.toolUseId, reply, {
        ...call,
        signal: controller.signal,
      }).catch((error: unknown): ToolResultOutcome => {
        // After the terminal event a 404 or 409 is the late arrival the documents describe, whatever code its body names
        // (http-surface.md: "a client treats both as a normal late arrival"; a server may answer 404 "Run not found").
        const name = late && isMantyxApiError(error) && LATE_OUTCOMES[error.status];
        if (name) return { status: name, error };
        throw error;
      });
      onToolResult?.(data, outcome, { late });
    })().catch((error: unknown) => {
      if (postFailure === undefined && !controller.signal.aborted) {
        postFailure = { error };
        controller.abort(error);
      }
    });
    tasks.set(data.toolUseId, task);
  };

  const stream = client.streamRun(runId, { ...streamOptions, signal: controller.signal });
  /** The stream ended and the run with it, without a valid terminal event: nothing left to cancel. */
  let over = false;
  try {
    for await (const item of stream) {
      if (isTerminalEvent(item)) ended = true;
      if (onEvent !== undefined) await onEvent(item as DecodedItemFor<V, AgentRunEvent>);
      if (!(item instanceof StreamDecodeError) && item.type === "local_tool_call") answer(item as LocalToolCallEvent);
    }
    ended = true;
    over = stream.terminal !== undefined;
    // Handlers still running (the server timed their calls out, or cancelled
    // the run) are still owed their one POST: wait for them, bounded.
    const settled = Promise.all(tasks.values());
    const bound = sleep(lateResultTimeoutMs, controller.signal).then(
      () => "timeout" as const,
      () => "aborted" as const,
    );
    if ((await Promise.race([settled, bound])) === "timeout")
      controller.abort(
        new Error(
          `runAgent: handlers still running ${lateResultTimeoutMs} ms after the terminal event (lateResultTimeoutMs)`,
        ),
      );
    if (postFailure !== undefined) throw postFailure.error;
    if (options.signal?.aborted) throw options.signal.reason;
    if (stream.terminal === undefined) {
      // A malformed terminal event (onInvalid "deliver" / "skip-and-warn").
      over = true;
      throw new Error(`The stream of run ${runId} ended without a terminal event (it was malformed).`);
    }
    return stream.terminal;
  } catch (error) {
    const failure = postFailure?.error ?? (options.signal?.aborted ? options.signal.reason : error);
    // Best effort, and not under the caller's (possibly aborted) signal.
    if (cancelOnFailure && !over) await client.cancelRun(runId, { ...call, signal: undefined }).catch(() => undefined);
    throw failure;
  } finally {
    controller.abort();
  }
}
