/**
 * Client-resolved tools (wire-protocol.md §3.1–3.3, §4.3, §13): three
 * registries and the dispatch of `local_tool_call` events.
 *
 * - `local` tools, by name;
 * - `a2a_local` peers, by a field of their Agent Card (`url` unless
 *   `a2aIndexBy` says otherwise), since the call echoes the whole card; a
 *   call without its card (older and test servers) by the peer's tool name;
 * - `mcp_local` servers, by their SDK-side label (`local_tool_call.mcpServer`).
 *
 * A call is dispatched by its `kind`, `local` when omitted (older servers).
 * Arguments are checked against the declared schema (`parameters`,
 * `inputSchema`, `{ message: string }` for A2A) with the built-in interpreter
 * (./json-schema.ts) or the caller's `validateArgs`. A local tool's
 * `parameters` may also be a Zod (4.2+), ArkType or Valibot schema: any
 * Standard Schema that carries the Standard JSON Schema converter
 * (https://standardschema.dev/json-schema), as §13 asks ("Zod / JSON
 * Schema, serialized to JSON Schema before submission"). It is sent as the
 * JSON Schema it converts to, and arguments are checked by the schema's own
 * `validate`, whose output value the handler gets (./standard-schema.ts).
 * Every failure becomes the tool's `error` (truncated to 8 KB of UTF-8),
 * which the model sees and can recover from; dispatch itself never throws.
 * How a handler's value becomes the answer: ./answer.ts.
 */
import type {
  A2aLocalToolRef,
  AgentCard,
  JsonSchemaObject,
  LocalToolCallData,
  LocalToolRef,
  McpImplementation,
  McpLocalToolRef,
  McpTool,
} from "../../generated/types.js";
import {
  asAnswer,
  errorText,
  MAX_ERROR_BYTES,
  mcpAnswer,
  truncateUtf8,
  type ToolAnswer,
  type ToolCallContext,
  type ToolHandlerResult,
} from "./answer.js";
import { checkJsonSchema } from "./json-schema.js";
import { isStandardJsonSchema, issueLine, jsonSchemaOf, type StandardJsonSchema } from "./standard-schema.js";

export interface LocalToolDefinition<Args = Record<string, unknown>> {
  name: string;
  description?: string;
  /**
   * The arguments' schema, also sent to the model: JSON Schema, or a
   * Standard JSON Schema (a Zod 4.2+ schema, say), sent as the JSON Schema
   * it converts to and checked with its own `validate`.
   */
  parameters?: JsonSchemaObject | StandardJsonSchema<Args>;
  /** The result's schema (forwarded as `outputSchema`): JSON Schema, or a Standard JSON Schema (its output side is sent). */
  outputSchema?: JsonSchemaObject | StandardJsonSchema;
  longRunning?: boolean;
  handler: (args: Args, context: ToolCallContext) => ToolHandlerResult | Promise<ToolHandlerResult>;
}

export interface A2aPeerDefinition {
  /** Model-facing tool name. */
  name: string;
  description?: string;
  /** The resolved Agent Card (fetched or written by you; MANTYX never fetches it). */
  agentCard: AgentCard;
  /** Sends `message` to the peer; returns its reply (text, or anything JSON-encodable). */
  handler: (message: string, context: ToolCallContext) => ToolHandlerResult | Promise<ToolHandlerResult>;
}

/** The MCP `tools/call` request a handler forwards to its MCP client. */
export interface McpCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface McpServerDefinition {
  /** SDK-side server label (echoed as `mcpServer`). */
  name: string;
  /** MCP `initialize` result's `serverInfo`, verbatim. */
  serverInfo?: McpImplementation;
  /** MCP `tools/list` result, verbatim. */
  tools: McpTool[];
  /**
   * Runs the call (typically `mcpClient.callTool(call)`). An MCP
   * `CallToolResult` (`{ content: [...] }`) is flattened to its text blocks,
   * and with `isError: true` posted as the tool's error.
   */
  handler: (call: McpCall, context: ToolCallContext) => ToolHandlerResult | Promise<ToolHandlerResult>;
}

/** Checks arguments against a declared schema: `null` when valid, else the problems, one per line. */
export type ArgsValidator = (schema: unknown, args: unknown, tool: { kind: string; name: string }) => string[] | null;

/**
 * Runs a call no registered tool matches (any kind): tools the spec declares
 * itself, an MCP server's tools that change at run time, a dynamic set. Its
 * value is posted like a handler's (an MCP `CallToolResult` is flattened for
 * an `mcp_local` call); arguments are not checked (there is no schema).
 */
export type FallbackHandler = (
  call: LocalToolCallData,
  context: ToolCallContext,
) => ToolHandlerResult | Promise<ToolHandlerResult>;

export interface ToolRegistryOptions {
  /** Agent Card field (or function) that indexes `a2a_local` peers. Default `"url"`. */
  a2aIndexBy?: string | ((card: AgentCard) => string | undefined);
  /** Replaces the built-in JSON Schema subset checker. */
  validateArgs?: ArgsValidator;
}

const A2A_ARGS: JsonSchemaObject = {
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" } },
};

/** A local tool as registered: its definition, and its schemas as sent (Standard JSON Schemas converted). */
interface LocalTool {
  definition: LocalToolDefinition<never>;
  parameters: JsonSchemaObject | undefined;
  outputSchema: JsonSchemaObject | undefined;
  /** `parameters` when it is a Standard Schema with its own check (called as a method: a library's `validate` may use `this`). */
  standard: StandardJsonSchema | undefined;
}

export class ToolRegistry {
  private readonly locals = new Map<string, LocalTool>();
  private readonly peers = new Map<string, A2aPeerDefinition>();
  private readonly peerList: A2aPeerDefinition[] = [];
  private readonly servers = new Map<string, McpServerDefinition>();
  private readonly indexBy: (card: AgentCard) => string | undefined;
  private readonly validateArgs: ArgsValidator;
  private fallbackHandler: FallbackHandler | undefined;

  constructor(options: ToolRegistryOptions = {}) {
    const by = options.a2aIndexBy ?? "url";
    this.indexBy =
      typeof by === "function"
        ? by
        : (card) => {
            const v = (card as Record<string, unknown>)[by];
            return typeof v === "string" ? v : undefined;
          };
    this.validateArgs =
      options.validateArgs ??
      ((schema, args) => {
        const issues = checkJsonSchema(schema, args);
        return issues.length === 0
          ? null
          : issues.map((i) => `${i.instancePath === "" ? "(arguments)" : i.instancePath} ${i.message}`);
      });
  }

  /** Registers a `local` tool (dispatched by name). */
  local<Args = Record<string, unknown>>(definition: LocalToolDefinition<Args>): this {
    const { name, parameters } = definition;
    if (this.locals.has(name)) throw new Error(`A local tool named ${JSON.stringify(name)} is already registered.`);
    this.locals.set(name, {
      definition: definition as unknown as LocalToolDefinition<never>,
      parameters: jsonSchemaOf(parameters, "input", `The parameters of local tool ${JSON.stringify(name)}`),
      outputSchema: jsonSchemaOf(
        definition.outputSchema,
        "output",
        `The outputSchema of local tool ${JSON.stringify(name)}`,
      ),
      standard:
        isStandardJsonSchema(parameters) && typeof parameters["~standard"].validate === "function"
          ? parameters
          : undefined,
    });
    return this;
  }

  /** Registers an `a2a_local` peer (dispatched by its Agent Card's index field, `url` by default). */
  a2aLocal(definition: A2aPeerDefinition): this {
    const key = this.indexBy(definition.agentCard);
    if (key === undefined)
      throw new Error(
        `The Agent Card of a2a_local tool ${JSON.stringify(definition.name)} lacks the field the registry indexes peers by (a2aIndexBy).`,
      );
    if (this.peers.has(key))
      throw new Error(`An a2a_local peer with Agent Card key ${JSON.stringify(key)} is already registered.`);
    this.peers.set(key, definition);
    this.peerList.push(definition);
    return this;
  }

  /** Registers an `mcp_local` server (dispatched by its label, `mcpServer`). */
  mcpLocal(definition: McpServerDefinition): this {
    if (this.servers.has(definition.name))
      throw new Error(`An mcp_local server labelled ${JSON.stringify(definition.name)} is already registered.`);
    this.servers.set(definition.name, definition);
    return this;
  }

  /** Registers the handler of calls no registered tool matches (one per registry). */
  fallback(handler: FallbackHandler): this {
    if (this.fallbackHandler !== undefined) throw new Error("A fallback handler is already registered.");
    this.fallbackHandler = handler;
    return this;
  }

  /** The key an Agent Card is indexed by (`a2aIndexBy`), or undefined when it lacks it. */
  peerKey(card: AgentCard): string | undefined {
    return this.indexBy(card);
  }

  /** The `spec.tools[]` entries that declare every registered tool. */
  toolRefs(): Array<LocalToolRef | A2aLocalToolRef | McpLocalToolRef> {
    const refs: Array<LocalToolRef | A2aLocalToolRef | McpLocalToolRef> = [];
    for (const { definition: t, parameters, outputSchema } of this.locals.values()) {
      const ref: LocalToolRef = { kind: "local", name: t.name };
      if (t.description !== undefined) ref.description = t.description;
      if (parameters !== undefined) ref.parameters = parameters;
      if (outputSchema !== undefined) ref.outputSchema = outputSchema;
      if (t.longRunning !== undefined) ref.longRunning = t.longRunning;
      refs.push(ref);
    }
    for (const p of this.peerList) {
      const ref: A2aLocalToolRef = { kind: "a2a_local", name: p.name, agentCard: p.agentCard };
      if (p.description !== undefined) ref.description = p.description;
      refs.push(ref);
    }
    for (const s of this.servers.values()) {
      const ref: McpLocalToolRef = { kind: "mcp_local", name: s.name, tools: s.tools };
      if (s.serverInfo !== undefined) ref.serverInfo = s.serverInfo;
      refs.push(ref);
    }
    return refs;
  }

  /** Runs the call and returns what to post. Never throws: failures are the tool's `error`. */
  async dispatch(call: LocalToolCallData, context: Omit<ToolCallContext, "call">): Promise<ToolAnswer> {
    const ctx: ToolCallContext = { ...context, call };
    const kind = (call as { kind?: unknown }).kind ?? "local";
    try {
      switch (kind) {
        case "local": {
          const tool = this.locals.get(call.name);
          if (tool === undefined)
            return await this.unmatched(
              ctx,
              `No local tool named ${JSON.stringify(call.name)} is registered in this client.`,
            );
          let args = call.args;
          if (tool.standard !== undefined) {
            // The schema library's own check; its output (defaults, transforms) is what the handler gets.
            const checked = await tool.standard["~standard"].validate!(args);
            if (checked.issues !== undefined) return this.badArgs(call.name, checked.issues.map(issueLine));
            args = checked.value as typeof args;
          } else {
            const bad = this.validateArgs(tool.parameters, args, { kind: "local", name: call.name });
            if (bad !== null) return this.badArgs(call.name, bad);
          }
          return asAnswer(await tool.definition.handler(args as never, ctx));
        }
        case "a2a_local": {
          const card = (call as { agentCard?: AgentCard }).agentCard;
          let peer: A2aPeerDefinition | undefined;
          if (card === undefined) {
            // A call without its Agent Card (required at the strict level only: the official SDKs' servers send such
            // calls, and the SDKs dispatch them by name): the peer registered under the call's tool name, if any.
            peer = this.peerList.find((p) => p.name === call.name);
            if (peer === undefined)
              return await this.unmatched(
                ctx,
                `The a2a_local call of tool ${JSON.stringify(call.name)} came without its Agent Card, and no a2a_local peer is registered under that name.`,
              );
          } else {
            const key = this.indexBy(card);
            peer = key === undefined ? undefined : this.peers.get(key);
            if (peer === undefined)
              return await this.unmatched(
                ctx,
                `No a2a_local peer is registered for Agent Card ${JSON.stringify(key ?? null)} (tool ${JSON.stringify(call.name)}).`,
              );
          }
          const bad = this.validateArgs(A2A_ARGS, call.args, { kind: "a2a_local", name: call.name });
          if (bad !== null) return this.badArgs(call.name, bad);
          return asAnswer(await peer.handler((call.args as { message: string }).message, ctx));
        }
        case "mcp_local": {
          const { mcpServer, mcpToolName } = call as { mcpServer?: string; mcpToolName?: string };
          const server = mcpServer === undefined ? undefined : this.servers.get(mcpServer);
          if (server === undefined)
            return await this.unmatched(
              ctx,
              `No mcp_local server labelled ${JSON.stringify(mcpServer ?? null)} is registered.`,
            );
          const toolName = mcpToolName ?? call.name;
          const tool = server.tools.find((t) => t.name === toolName);
          if (tool === undefined)
            return await this.unmatched(
              ctx,
              `MCP server ${JSON.stringify(server.name)} has no tool ${JSON.stringify(toolName)}.`,
            );
          const bad = this.validateArgs(tool.inputSchema, call.args, { kind: "mcp_local", name: toolName });
          if (bad !== null) return this.badArgs(toolName, bad);
          return mcpAnswer(
            await server.handler({ name: toolName, arguments: call.args as Record<string, unknown> }, ctx),
          );
        }
        default:
          return await this.unmatched(ctx, `This client cannot run tools of kind ${JSON.stringify(kind)}.`);
      }
    } catch (error) {
      return this.fail(errorText(error));
    }
  }

  /** A call no registered tool matches: the fallback's answer, else `reason` as the tool's error. */
  private async unmatched(ctx: ToolCallContext, reason: string): Promise<ToolAnswer> {
    const handler = this.fallbackHandler;
    if (handler === undefined) return this.fail(reason);
    const value = await handler(ctx.call, ctx);
    return (ctx.call as { kind?: unknown }).kind === "mcp_local" ? mcpAnswer(value) : asAnswer(value);
  }

  private fail(message: string): ToolAnswer {
    return { error: truncateUtf8(message, MAX_ERROR_BYTES) };
  }

  private badArgs(name: string, problems: string[]): ToolAnswer {
    return this.fail(
      `Invalid arguments for tool ${JSON.stringify(name)}:\n${problems.map((p) => `- ${p}`).join("\n")}`,
    );
  }
}
