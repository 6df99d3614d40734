/**
 * Resolving client-side tools locally, as the compliance checklist asks
 * (wire-protocol.md §13): "For `a2a_local`, resolve the Agent Card locally
 * and ship it as `agentCard`" and "for `mcp_local`, speak `Initialize` +
 * `tools/list` locally and ship the verbatim result as `serverInfo` +
 * `tools[]`". MANTYX never fetches or discovers anything itself.
 *
 * - `fetchAgentCard(url)`: the peer's Agent Card, from its well-known path,
 *   checked against the AgentCard schema and returned verbatim (fields
 *   MANTYX does not read pass through).
 * - `mcpServerFrom(name, client)`: an `mcp_local` server definition for
 *   ToolRegistry.mcpLocal from a connected MCP client (the official
 *   `@modelcontextprotocol/sdk` Client fits; `connect()` ran `initialize`):
 *   `serverInfo`, every page of `tools/list`, and `tools/call` as handler.
 *
 * No MCP or A2A library is a dependency: the client is typed structurally.
 */
import type { AgentCard, McpImplementation, McpTool } from "../../generated/types.js";
import { validateAgentCard } from "../../generated/validators/agent-card.js";
import type { McpServerDefinition } from "./registry.js";

/** A tool could not be resolved locally: the Agent Card or the MCP server did not answer as the protocols say. */
export class ToolResolutionError extends Error {
  override readonly name = "ToolResolutionError";
}

/** Where an agent's card is published (A2A: `/.well-known/agent-card.json` on the agent's origin). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

export interface FetchAgentCardOptions {
  fetch?: typeof fetch | undefined;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
}

/**
 * Fetches and checks an Agent Card. `url` is the card's own URL (ending in
 * `.json`) or any URL of the agent, whose origin's well-known path is then
 * read. Throws ToolResolutionError for a non-2xx answer, a body that is not
 * JSON, or a card that fails the AgentCard schema (each problem listed).
 */
export async function fetchAgentCard(url: string | URL, options: FetchAgentCardOptions = {}): Promise<AgentCard> {
  const base = new URL(url);
  const target = base.pathname.endsWith(".json") ? base : new URL(AGENT_CARD_PATH, base);
  const fetchFn = options.fetch ?? globalThis.fetch;
  const response = await fetchFn(target, {
    headers: { accept: "application/json", ...options.headers },
    signal: options.signal,
  });
  const text = await response.text();
  if (!response.ok)
    throw new ToolResolutionError(`Agent Card ${target}: ${response.status} ${response.statusText}`.trimEnd());
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch (cause) {
    throw new ToolResolutionError(
      `Agent Card ${target}: the answer is not JSON (${response.headers.get("content-type")})`,
      { cause },
    );
  }
  if (!validateAgentCard(card)) {
    const issues = (validateAgentCard.errors ?? [])
      .map((i) => `\n  ${i.instancePath || "(card)"}: ${i.message}`)
      .join("");
    throw new ToolResolutionError(`Agent Card ${target} is not a valid Agent Card:${issues}`);
  }
  return card;
}

/** What mcpServerFrom needs of an MCP client: the official SDK's Client, connected, has it. */
export interface McpClientLike {
  /** The `serverInfo` of the `initialize` result; undefined before `connect()`. */
  getServerVersion(): McpImplementation | undefined;
  listTools(
    params?: { cursor?: string },
    options?: { signal?: AbortSignal },
  ): Promise<{ tools: McpTool[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
}

/**
 * An `mcp_local` server definition from a connected MCP client: its
 * `serverInfo`, its tools (every `tools/list` page, verbatim), and a handler
 * that forwards each call as `tools/call` (the result is flattened by the
 * registry). `name` is the SDK-side label the server is dispatched by.
 */
export async function mcpServerFrom(
  name: string,
  client: McpClientLike,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<McpServerDefinition> {
  const serverInfo = client.getServerVersion();
  if (serverInfo === undefined)
    throw new ToolResolutionError(
      `MCP server ${JSON.stringify(name)}: the client has no serverInfo; await client.connect(transport) (which runs initialize) first.`,
    );
  const tools: McpTool[] = [];
  const cursors = new Set<string>();
  for (let cursor: string | undefined; ; ) {
    const page = await client.listTools(
      cursor === undefined ? undefined : { cursor },
      options.signal ? { signal: options.signal } : undefined,
    );
    tools.push(...page.tools);
    cursor = page.nextCursor;
    // No cursor, or an empty one: the last page.
    if (!cursor) break;
    // A server that hands out a cursor twice would page forever.
    if (cursors.has(cursor))
      throw new ToolResolutionError(
        `MCP server ${JSON.stringify(name)}: tools/list returned the cursor ${JSON.stringify(cursor)} twice.`,
      );
    cursors.add(cursor);
  }
  return {
    name,
    serverInfo,
    tools,
    handler: (call, context) =>
      client.callTool(
        { name: call.name, arguments: call.arguments },
        undefined,
        context.signal ? { signal: context.signal } : undefined,
      ),
  };
}
