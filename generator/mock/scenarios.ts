/**
 * Scripted runs. A run's scenario is `spec.metadata.scenario`; without one,
 * a run that declares client-resolved tools plays "tools", any other "text".
 * Knobs, also in `metadata` (strings, as the protocol's metadata is):
 * - `args`: JSON of the arguments of every `local` / `mcp_local` call;
 * - `message`: the `a2a_local` message;
 * - `omitKind`: "true" sends `local_tool_call` without `kind` (older servers);
 * - `toolTimeoutMs`: how long a tool call waits before the run fails with
 *   `local_timeout` (default 10 000);
 * - `count`: number of deltas of "many";
 * - `output`: the reply text of "structured";
 * - `stepMs`: pause between live events;
 * - `rounds`: number of tool round trips of "tool-rounds" (one call each, to
 *   the first client-resolved tool; default 3);
 * - `edition`: "2026-10", "2026-09" or "older": the shapes of this run's
 *   events (./editions.ts); default: the server's `edition`.
 * Without `args`, each call's arguments are an example value of the tool's
 * `parameters` (an MCP tool's `inputSchema`): ./example-value.ts.
 * Numbers are clamped (`count` ≤ 10 000, `rounds` ≤ 100, `stepMs` and
 * `toolTimeoutMs` ≤ 10 minutes), so one request cannot hold the server.
 * A scenario that names a flow case or a script (./flow-player.ts) plays it.
 */
import { exampleValue } from "./example-value.js";
import { playScript } from "./flow-player.js";
import { CANCELLED, TIMED_OUT, type MockRun, type ToolAnswerBody } from "./run-state.js";

const TOKENS = { inputTokens: 120, cachedTokens: 0, reasoningTokens: 0, outputTokens: 40 };
const MODEL = { id: "platform:demo", provider: "openai", vendorModelId: "gpt-5.4-mini" };

type ToolRef = {
  kind: string;
  name: string;
  parameters?: unknown;
  agentCard?: unknown;
  tools?: Array<{ name: string; inputSchema?: unknown }>;
  serverInfo?: unknown;
};

/** The scripted scenarios (besides flow cases and scripts). */
export const SCENARIOS = [
  "text",
  "many",
  "tools",
  "tool-rounds",
  "slow",
  "legacy",
  "legacy-failure",
  "unknown-type",
  "invalid",
  "invalid-no-id",
  "invalid-terminal",
  "truncated",
  "lenient",
  "structured",
] as const;

/** The clamped number of `metadata[key]`: `fallback` when absent or not a number. */
export function metaNumber(run: MockRun, key: string, fallback: number, max: number, min = 0): number {
  const raw = meta(run)[key];
  const n = raw === undefined ? fallback : Number(raw);
  return Number.isFinite(n) ? Math.min(Math.max(Math.trunc(n), min), max) : fallback;
}

const TEN_MINUTES = 600_000;

function meta(run: MockRun): Record<string, string> {
  return (run.spec["metadata"] as Record<string, string> | undefined) ?? {};
}

export function clientTools(run: MockRun): ToolRef[] {
  const tools = (run.spec["tools"] as ToolRef[] | undefined) ?? [];
  return tools.filter((t) => t.kind === "local" || t.kind === "a2a_local" || t.kind === "mcp_local");
}

export function scenarioOf(run: MockRun): string {
  return meta(run)["scenario"] ?? (clientTools(run).length > 0 ? "tools" : "text");
}

/** The terminal success marker of the run's edition. */
function success(run: MockRun): { ok: true } | { subtype: "success" } {
  return { ...run.shapes.success };
}

/**
 * What a terminal `result` or `error` of the run's edition says of
 * `outputSchema` (wire-protocol.md §4.8, October 2026): nothing on older
 * editions; else the mock's provider enforced a requested schema natively on
 * success, and a failed run's schema was attempted but not enforced.
 */
function structuredOutput(
  run: MockRun,
  outcome: "success" | "failure",
): { structuredOutput?: Record<string, unknown> } {
  if (!run.shapes.structuredOutput) return {};
  const requested = run.spec["outputSchema"] !== undefined;
  return {
    structuredOutput: {
      schemaRequested: requested,
      schemaEnforced: requested && outcome === "success",
      enforcementMechanism: requested ? "native_schema" : "none",
      unconstrainedFallbackOccurred: false,
    },
  };
}

/** The run's failure on a local-tool timeout, in its edition's shape. */
function toolTimeout(run: MockRun, turns: number): void {
  if (run.shapes.timeoutAsErrorEvent) {
    run.emit("error", {
      error: "Timed out waiting for local tool result",
      code: "local_timeout",
      errorClass: "local_timeout",
      ...structuredOutput(run, "failure"),
      tokens: TOKENS,
      turns,
      model: MODEL,
    });
  } else {
    run.emit("result", { subtype: "error_local_tool_timeout", error: "Timed out waiting for local tool result" });
  }
}

/**
 * The `local_tool_result_in` echo of a posted tool result: its `result` or
 * `error`, and, on editions that mirror them, its `files` as metadata only
 * (base64 `data` redacted, agent-runs §7, October 2026; the server honours
 * files only beside `result`, §8).
 */
function mirrorOf(run: MockRun, answer: ToolAnswerBody): Record<string, unknown> {
  const mirror: Record<string, unknown> = { toolUseId: answer.toolUseId };
  if (answer.result !== undefined) mirror["result"] = answer.result;
  if (answer.error !== undefined) mirror["error"] = answer.error;
  if (
    run.shapes.mirroredFiles &&
    answer.error === undefined &&
    Array.isArray(answer.files) &&
    answer.files.length > 0
  ) {
    mirror["files"] = (answer.files as Array<{ filename: string; mimeType: string; data: string }>).map((f) => ({
      filename: f.filename,
      mimeType: f.mimeType,
      sizeBytes: decodedLength(f.data),
    }));
  }
  return mirror;
}

/** The bytes a base64 string decodes to. */
function decodedLength(base64: string): number {
  return Buffer.from(base64, "base64").length;
}

function finishText(run: MockRun, text: string, turn: number): void {
  for (const piece of text.match(/.{1,12}/gs) ?? [""]) run.emit("assistant_delta", { text: piece });
  run.emit("assistant_message", { text, turn, finishReason: "end_turn" });
  run.emit("result", {
    ...success(run),
    text,
    ...structuredOutput(run, "success"),
    tokens: TOKENS,
    turns: turn + 1,
    model: MODEL,
  });
}

let toolCounter = 0;

/** One `local_tool_call` per client-resolved tool, all at once; waits for every answer. */
async function tools(run: MockRun): Promise<void> {
  const m = meta(run);
  const fixedArgs = m["args"] !== undefined ? (JSON.parse(m["args"]) as Record<string, unknown>) : undefined;
  const argsFor = (schema: unknown): unknown => fixedArgs ?? (schema === undefined ? {} : exampleValue(schema));
  const timeoutMs = metaNumber(run, "toolTimeoutMs", 10_000, TEN_MINUTES, 1);
  run.emit("assistant_delta", { text: "Let me check." });
  const calls: Array<{ toolUseId: string; name: string }> = [];
  const refs = clientTools(run);
  // Each call's name and arguments, decided once: the assistant message lists the calls the events then make.
  const planned = refs.map((ref) => {
    if (ref.kind === "a2a_local")
      return { ref, name: ref.name, args: { message: m["message"] ?? "When does PTO reset?" } as unknown };
    if (ref.kind === "mcp_local")
      return { ref, name: ref.tools?.[0]?.name ?? "unknown", args: argsFor(ref.tools?.[0]?.inputSchema) };
    return { ref, name: ref.name, args: argsFor(ref.parameters) };
  });
  run.emit("assistant_message", {
    text: "Let me check.",
    turn: 0,
    finishReason: "tool_use",
    toolCalls: planned.map((p, i) => ({ id: `call_${i}`, name: p.name, input: p.args })),
  });
  for (const { ref, name, args } of planned) {
    const toolUseId = `tu_${++toolCounter}`;
    if (ref.kind === "local") {
      const data: Record<string, unknown> = { toolUseId, name, args };
      if (m["omitKind"] !== "true") data["kind"] = "local";
      run.emit("local_tool_call", data);
    } else if (ref.kind === "a2a_local") {
      run.emit("local_tool_call", { toolUseId, name, args, kind: "a2a_local", agentCard: ref.agentCard });
    } else {
      const data: Record<string, unknown> = {
        toolUseId,
        name,
        args,
        kind: "mcp_local",
        mcpServer: ref.name,
        mcpToolName: name,
      };
      if (ref.serverInfo !== undefined) data["mcpServerInfo"] = ref.serverInfo;
      run.emit("local_tool_call", data);
    }
    calls.push({ toolUseId, name });
  }
  const answers = await Promise.all(calls.map((c) => run.awaitTool(c.toolUseId, timeoutMs)));
  if (answers.some((a) => a === CANCELLED)) return;
  if (answers.some((a) => a === TIMED_OUT)) {
    run.emit("assistant_message", { text: "", turn: 1, finishReason: null });
    toolTimeout(run, 1);
    return;
  }
  const parts: string[] = [];
  for (const a of answers as ToolAnswerBody[]) {
    run.emit("local_tool_result_in", mirrorOf(run, a));
    parts.push(a.error !== undefined ? `error: ${a.error}` : `${a.result}`);
  }
  finishText(run, `Tool said: ${parts.join(" | ")}`, 1);
}

export async function play(run: MockRun): Promise<void> {
  const m = meta(run);
  const step = metaNumber(run, "stepMs", 0, TEN_MINUTES);
  if (run.script !== undefined)
    return playScript(run, run.script, metaNumber(run, "toolTimeoutMs", 10_000, TEN_MINUTES, 1));
  if (run.shapes.startedEvent) run.emit("started", {});
  const pause = async (): Promise<boolean> => (step > 0 ? run.sleep(step) : !run.done);
  switch (scenarioOf(run)) {
    case "text":
      finishText(run, "Hello, world! This is a scripted reply.", 0);
      return;
    case "many": {
      const n = metaNumber(run, "count", 20, 10_000);
      let text = "";
      for (let i = 0; i < n; i++) {
        if (!(await pause())) return;
        const piece = `word${i} `;
        text += piece;
        run.emit("assistant_delta", { text: piece });
      }
      run.emit("assistant_message", { text, turn: 0, finishReason: "end_turn" });
      run.emit("result", {
        ...success(run),
        text,
        ...structuredOutput(run, "success"),
        tokens: TOKENS,
        turns: 1,
        model: MODEL,
      });
      return;
    }
    case "tools":
      await tools(run);
      return;
    case "tool-rounds": {
      const ref = clientTools(run)[0];
      const timeoutMs = metaNumber(run, "toolTimeoutMs", 10_000, TEN_MINUTES, 1);
      const results: string[] = [];
      const rounds = metaNumber(run, "rounds", 3, 100);
      for (let round = 0; round < rounds; round++) {
        run.emit("assistant_delta", { text: `round ${round}` });
        const toolUseId = `tu_${++toolCounter}`;
        run.emit("local_tool_call", { toolUseId, name: ref?.name ?? "none", args: { round }, kind: "local" });
        const a = await run.awaitTool(toolUseId, timeoutMs);
        if (a === CANCELLED) return;
        if (a === TIMED_OUT) {
          toolTimeout(run, round + 1);
          return;
        }
        run.emit("local_tool_result_in", mirrorOf(run, a));
        results.push(a.error ?? a.result ?? "");
      }
      finishText(run, `Tools said: ${results.join(" | ")}`, 1);
      return;
    }
    case "slow":
      run.emit("assistant_delta", { text: "Thinking for a long time…" });
      await run.sleep(30_000);
      if (!run.done) finishText(run, "Finally.", 0);
      return;
    case "legacy":
      if (!run.shapes.startedEvent) run.emit("started", {});
      run.emit("tool_call", { toolUseId: "tu_srv", name: "github_search_repos", input: { q: "mantyx" } });
      run.emit("tool_result", {
        toolUseId: "tu_srv",
        name: "github_search_repos",
        ok: true,
        summary: "3 repositories found",
      });
      run.emit("assistant_delta", { text: "Found 3." });
      run.emit("assistant_message", { text: "Found 3." });
      run.emit("result", { subtype: "success", text: "Found 3." });
      return;
    case "legacy-failure":
      if (!run.shapes.startedEvent) run.emit("started", {});
      run.emit("result", { subtype: "error_local_tool_timeout", error: "Timed out waiting for local tool result" });
      return;
    case "unknown-type":
      run.emit("assistant_delta", { text: "Hi" });
      run.emit("memory_snapshot", { bytes: 2048 });
      finishText(run, "Hi there", 0);
      return;
    case "invalid":
      run.emit("assistant_delta", { text: "before" });
      run.emitRaw("assistant_delta", "{not json");
      run.emit("assistant_delta", { txet: "missing text" });
      run.emit("assistant_delta", { text: "after" });
      run.emit("result", { ok: true, text: "beforeafter" });
      return;
    case "invalid-no-id":
      // Malformed frames without their own `id:` line: each inherits the id of the frame before it.
      run.emit("assistant_delta", { text: "before" });
      run.emitRaw("assistant_delta", "{not json", { noId: true });
      run.emitRaw("assistant_delta", "{not json either", { noId: true });
      run.emitRaw("assistant_delta", JSON.stringify({ seq: 4, type: "assistant_delta", data: { txet: "no text" } }), {
        noId: true,
      });
      run.emit("result", { ok: true, text: "before" });
      return;
    case "invalid-terminal":
      run.emit("assistant_delta", { text: "a" });
      // Breaks what its type promises (`ok` a boolean). (A result with neither ok nor subtype was this scenario; it is read now, as the official SDKs read it.)
      run.emit("result", { ok: "yes", text: "ok is not a boolean" });
      return;
    case "truncated":
      run.emit("assistant_delta", { text: '{"answer": "par' });
      run.emit("assistant_message", { text: '{"answer": "par', turn: 0, finishReason: "max_tokens" });
      run.emit("error", {
        error: "Model output was truncated (stop_reason=max_tokens).",
        code: "truncation",
        errorClass: "truncation",
        finishReason: "max_tokens",
        partialText: '{"answer": "par',
        retryable: false,
        ...structuredOutput(run, "failure"),
        tokens: TOKENS,
        turns: 1,
        model: MODEL,
      });
      return;
    case "lenient":
      // Values only the strict level rejects: an unlisted reasoningEffort, a redirect review without its message.
      run.emit("supervisor", { action: "redirect", reason: "Looping on one search.", llmCalls: 3 });
      run.emit("assistant_delta", { text: "Done." });
      run.emit("result", {
        ok: true,
        text: "Done.",
        tokens: TOKENS,
        turns: 1,
        model: { ...MODEL, reasoningEffort: "extreme" },
      });
      return;
    case "structured":
      finishText(run, m["output"] ?? '{"city":"Paris","tempC":21}', 0);
      return;
    default:
      run.emit("error", { error: `unknown mock scenario ${scenarioOf(run)}`, code: "invalid_spec" });
  }
}
