/**
 * `runAgent(client, spec, { tools })`: a whole run in one call — create it,
 * read its stream (with resume), answer each `local_tool_call` through the
 * tool registry, and resolve with the terminal event (wire-protocol.md §1,
 * §13). A standalone function, not a client method, so a program that does
 * not use it does not bundle it.
 *
 * Tool calls run concurrently (a turn may call several tools, and the server
 * waits for all of them), each answered by exactly one POST. When the helper
 * gives up on the run — the caller aborts `signal`, a tool-result POST fails
 * outright (not a normal outcome such as `run_terminal`), or the stream
 * fails for good (reconnects exhausted, a fatal answer, an invalid event
 * with `onInvalid: "throw"`) — it POSTs a best-effort cancel, so the run does
 * not go on (and bill) without anyone reading it (unless
 * `cancelOnFailure: false`), then rejects with the original error.
 */
import type { MantyxCallOptions, MantyxStreamOptions, ToolResultOutcome } from "../generated/client.js";
import type { TerminalEvent } from "../generated/events.js";
import type { AgentRunEvent, LocalToolCallData, RunCreateRequest, RunCreateResponse, ToolRef, ToolResultRequest } from "../generated/types.js";
import { isRequestValidationError, StreamDecodeError, type RunEventStream, type RunStreamItem } from "../runtime/client/index.js";
import { linked } from "../runtime/client/internal/backoff.js";
import type { ToolAnswer, ToolCallContext } from "./tools/registry.js";

type CallOptions = MantyxCallOptions;
type StreamRunOptions = MantyxStreamOptions;

/** What the run helper needs of a client (the generated MantyxClient has it). */
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

export interface RunOptions extends StreamRunOptions {
  /** Client-resolved tools (a ToolRegistry): declared in the spec and answered when called. */
  tools?: ToolDispatcher | undefined;
  /** Sees every stream item, in order (awaited before the next one). */
  onEvent?: ((item: RunStreamItem<AgentRunEvent>) => void | Promise<void>) | undefined;
  /** Called with each tool call's POST outcome. */
  onToolResult?: ((call: LocalToolCallData, outcome: ToolResultOutcome) => void) | undefined;
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
    const keyOf = (card: typeof a.agentCard): string | undefined => (registry.peerKey !== undefined ? registry.peerKey(card) : card.url);
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

export async function runAgent(client: RunnableClient, spec: RunCreateRequest, options: RunOptions = {}): Promise<TerminalEvent> {
  const { tools, onEvent, onToolResult, cancelOnFailure = true, ...streamOptions } = options;
  const registry = tools ?? NO_TOOLS;
  const call: CallOptions = {};
  if (options.signal !== undefined) call.signal = options.signal;
  if (options.workspace !== undefined) call.workspace = options.workspace;
  if (options.headers !== undefined) call.headers = options.headers;
  const { runId } = await client.createRun(withTools(spec, tools), call);

  // Our own signal: aborted by the caller's, or by a failed tool-result POST.
  const controller = linked(options.signal);
  let postFailure: { error: unknown } | undefined;
  /** Tool calls seen, by toolUseId: a call delivered twice (say, under another seq) runs once. */
  const seen = new Set<string>();
  const answer = (data: LocalToolCallData): void => {
    if (seen.has(data.toolUseId)) return;
    seen.add(data.toolUseId);
    void (async () => {
      const reply = await registry.dispatch(data, { runId, signal: controller.signal });
      // The run ended (or the helper gave up) while the tool ran: nobody can take the result.
      if (controller.signal.aborted) return;
      const post = (body: ToolResultRequest): Promise<ToolResultOutcome> => client.postToolResult(runId, body, { ...call, signal: controller.signal });
      let outcome: ToolResultOutcome;
      try {
        outcome = await post({ toolUseId: data.toolUseId, ...reply });
      } catch (error) {
        // The handler's answer fails the tool-result schema (more than 20
        // files, too many bytes of them, …): nothing was sent, and the call
        // is still owed its one POST, so the model gets the reason as the
        // tool's error instead of the run failing.
        if (!isRequestValidationError(error) || "error" in reply) throw error;
        outcome = await post({ toolUseId: data.toolUseId, error: `The tool's answer could not be sent: ${error.message}`.slice(0, 2000) });
      }
      onToolResult?.(data, outcome);
    })().catch((error: unknown) => {
      if (postFailure === undefined && !controller.signal.aborted) {
        postFailure = { error };
        controller.abort(error);
      }
    });
  };

  const stream = client.streamRun(runId, { ...streamOptions, signal: controller.signal });
  /** The stream ended and the run with it, without a valid terminal event: nothing left to cancel. */
  let over = false;
  try {
    for await (const item of stream) {
      if (onEvent !== undefined) await onEvent(item);
      if (!(item instanceof StreamDecodeError) && item.type === "local_tool_call") answer(item.data as LocalToolCallData);
    }
    // The run is over. The server answers every tool call (or times it out)
    // before its terminal event (wire-protocol.md §5, §9), so a handler still
    // running has no one to answer: it is not waited for, its signal is
    // aborted (in `finally`), and its result is not posted.
    if (postFailure !== undefined) throw postFailure.error;
    if (stream.terminal === undefined) {
      // A malformed terminal event (onInvalid "deliver" / "skip-and-warn"), or a run resumed past its end.
      over = true;
      throw new Error(`The stream of run ${runId} ended without a terminal event.`);
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
