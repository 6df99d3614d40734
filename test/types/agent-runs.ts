/**
 * Type-level tests of generated/types.ts, checked by `tsc --noEmit -p
 * test/types/tsconfig.json` (strict). Nothing here runs: every function is a
 * proof that a narrowing holds, and every `@ts-expect-error` line a proof
 * that a wrong shape is rejected (an unused directive fails the build).
 */
import type {
  KNOWN_AGENT_RUN_EVENT_TYPES,
  TOOL_REF_KINDS,
  AgentRunEvent,
  AssistantDeltaEvent,
  ErrorClass,
  FinishReason,
  KnownAgentRunEvent,
  LocalToolCallData,
  LocalToolCallLocal,
  LocalToolCallOther,
  Metadata,
  RunCreateRequest,
  TextDeltaData,
  ToolRef,
  ToolResultRequest,
  UnknownAgentRunEvent,
} from "../../generated/types.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | undefined {
  return undefined;
}

// --- event.type narrows event.data -----------------------------------------

export function render(event: AgentRunEvent): string {
  switch (event.type) {
    case "assistant_delta":
    case "thinking_delta": {
      assertType<Equal<typeof event.data, TextDeltaData>>();
      return event.data.text;
    }
    case "local_tool_call":
      return dispatch(event.data);
    case "result":
      return event.data.text ?? "";
    case "error":
      return `${event.data.error} (${event.data.errorClass ?? event.data.code})`;
    case "supervisor":
      return event.data.action;
    default: {
      // Other known types and the unknown variant: `data` is not known here.
      // @ts-expect-error event data cannot be used without narrowing on `type`
      event.data.text;
      return String(event.type);
    }
  }
}

/** The if-chain form narrows the same way. */
export function isDone(event: AgentRunEvent): boolean {
  if (event.type === "result") return event.data.ok === true || event.data.subtype === "success";
  return event.type === "error" || event.type === "cancelled";
}

/** A case for a known type leaves the unknown variant out entirely. */
export function known(event: AgentRunEvent): void {
  if (event.type === "assistant_delta") assertType<Equal<typeof event, AssistantDeltaEvent>>();
}

// --- data.kind narrows local_tool_call data (kind is optional for `local`; another kind is LocalToolCallOther) --

export function dispatch(data: LocalToolCallData): string {
  switch (data.kind) {
    case undefined:
    case "local":
      assertType<Equal<typeof data, LocalToolCallLocal>>();
      return data.name;
    case "a2a_local":
      // The card is required at the strict level only (official SDK servers leave it out): the type says so.
      return `${data.agentCard?.name ?? data.name}: ${data.args.message}`;
    case "mcp_local":
      return `${data.mcpServer}/${data.mcpToolName}`;
    default:
      // A kind of a newer server: its own variant, the known cases narrowed away.
      assertType<Equal<typeof data, LocalToolCallOther>>();
      return `${data.name} (${String(data.kind)})`;
  }
}

// --- ref.kind narrows a tool ref ---------------------------------------------

export function describeTool(ref: ToolRef): string {
  switch (ref.kind) {
    case "mantyx":
      return ref.id;
    case "mantyx_plugin":
      return ref.name;
    case "local":
      return `${ref.name}${ref.longRunning ? " (long-running)" : ""}`;
    case "a2a":
      return ref.agentCardUrl;
    case "a2a_local":
      return ref.agentCard.url ?? ref.name;
    case "mcp":
      return ref.url;
    case "mcp_local":
      return ref.tools.map((tool) => tool.name).join(", ");
    default: {
      const exhaustive: never = ref;
      return exhaustive;
    }
  }
}

// --- the tag arrays list exactly the union's tags ---------------------------

assertType<Equal<(typeof KNOWN_AGENT_RUN_EVENT_TYPES)[number], KnownAgentRunEvent["type"]>>();
assertType<Equal<(typeof TOOL_REF_KINDS)[number], ToolRef["kind"]>>();

// --- shapes that compile ----------------------------------------------------

export const request: RunCreateRequest = {
  modelId: "openai:gpt-5.5",
  prompt: "Hello",
  tools: [{ kind: "local", name: "send_email", parameters: { type: "object" } }],
  loopDetection: false,
  metadata: { customer: "acme" },
  newerServerField: { anything: true }, // open objects keep unknown fields
};
export const answered: ToolResultRequest = { toolUseId: "tu_1", result: "ok" };
export const failed: ToolResultRequest = { toolUseId: "tu_1", error: "boom" };
export const knownClass: ErrorClass = "rate_limit";
export const newerClass: ErrorClass = "a_class_added_later"; // additive: any string
export const noReason: FinishReason = null;
export const delta: AssistantDeltaEvent = { seq: 1, type: "assistant_delta", data: { text: "Hi" } };

// --- shapes that must not compile -------------------------------------------

// @ts-expect-error missing required field `data`
export const missingData: AssistantDeltaEvent = { seq: 1, type: "assistant_delta" };
// @ts-expect-error a literal that is not a known event type
export const wrongType: KnownAgentRunEvent = { seq: 1, type: "assistant_deltas", data: { text: "" } };
// @ts-expect-error the unknown variant's type only comes from decoded JSON, never a literal
export const forged: UnknownAgentRunEvent = { seq: 1, type: "memory_snapshot", data: {} };
// @ts-expect-error a literal that is not a tool kind
export const wrongKind: ToolRef = { kind: "remote", name: "x" };
// @ts-expect-error `local` tool refs need a name
export const nameless: ToolRef = { kind: "local" };
// @ts-expect-error a tool result needs `result` or `error`
export const unanswered: ToolResultRequest = { toolUseId: "tu_1" };
// @ts-expect-error a run needs `prompt` or `messages`
export const noInput: RunCreateRequest = { modelId: "openai:gpt-5.5" };
// @ts-expect-error metadata values are strings
export const numericMetadata: Metadata = { count: 1 };
// @ts-expect-error wrong field type
export const wrongSeq: AssistantDeltaEvent = { seq: "1", type: "assistant_delta", data: { text: "" } };
// @ts-expect-error prompt and messages together (each branch forbids the other's key)
export const promptAndMessages: RunCreateRequest = { prompt: "x", messages: [{ role: "user", content: "hi" }] };
