/**
 * Resolving client-side tools locally (wire-protocol.md §13): the Agent Card
 * fetched over real HTTP from its well-known path, and an mcp_local server
 * described by a real MCP server and client (the official SDK, in-memory
 * transport) and called through a whole run against the mock MANTYX server.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AGENT_CARD_PATH,
  fetchAgentCard,
  mcpServerFrom,
  runAgent,
  ToolRegistry,
  ToolResolutionError,
  type McpClientLike,
} from "../../index.js";
import { clientFor, useMockServer } from "./helpers.js";

const mantyx = useMockServer();

describe("fetchAgentCard", () => {
  const card = {
    name: "Acme HR",
    url: "https://hr.intranet.acme/a2a",
    skills: [],
    provider: { organization: "Acme Co." },
    "x-acme-team": "people-ops",
  };
  let http: Server;
  let origin: string;
  const served: string[] = [];
  beforeAll(async () => {
    http = createServer((req, res) => {
      served.push(`${req.url} ${req.headers.accept}`);
      if (req.url === AGENT_CARD_PATH || req.url === "/cards/hr.json")
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card));
      if (req.url === "/broken/card.json")
        return void res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>");
      if (req.url === "/nameless/card.json")
        return void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ url: "x", skills: "none" }));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

  it("reads the card from the agent origin's well-known path, verbatim (unknown fields kept)", async () => {
    expect(await fetchAgentCard(`${origin}/a2a/v1`)).toEqual(card);
    expect(served.pop()).toBe(`${AGENT_CARD_PATH} application/json`);
  });

  it("reads a card URL ending in .json as given, and the card registers as an a2a_local peer", async () => {
    const fetched = await fetchAgentCard(`${origin}/cards/hr.json`);
    const refs = new ToolRegistry().a2aLocal({ name: "hr_agent", agentCard: fetched, handler: () => "ok" }).toolRefs();
    expect(refs).toEqual([{ kind: "a2a_local", name: "hr_agent", agentCard: card }]);
  });

  it("a 404, a body that is not JSON, and a card failing the schema are ToolResolutionErrors naming the URL and the problem", async () => {
    await expect(fetchAgentCard(`${origin}/missing/card.json`)).rejects.toThrow(
      new ToolResolutionError(`Agent Card ${origin}/missing/card.json: 404 Not Found`),
    );
    await expect(fetchAgentCard(`${origin}/broken/card.json`)).rejects.toThrow(
      /broken\/card\.json: the answer is not JSON \(text\/html\)/,
    );
    const error = await fetchAgentCard(`${origin}/nameless/card.json`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolResolutionError);
    expect((error as Error).message).toMatch(
      /nameless\/card\.json is not a valid Agent Card:\n {2}\(card\): must have required property 'name'/,
    );
  });
});

describe("mcpServerFrom", () => {
  async function connectedClient(): Promise<Client> {
    const server = new McpServer({ name: "mcp-server-hosts", version: "1.2.0" });
    server.registerTool(
      "read_hosts",
      { description: "Reads the hosts file", inputSchema: { path: z.string() } },
      async ({ path }) => ({
        content: [
          { type: "text", text: `read ${path}:` },
          { type: "text", text: "127.0.0.1 localhost" },
        ],
      }),
    );
    server.registerTool("fail", { description: "Always fails" }, async () => ({
      content: [{ type: "text", text: "disk on fire" }],
      isError: true,
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "mantyx-test", version: "0.0.0" });
    await client.connect(clientSide);
    return client;
  }

  it("ships serverInfo and the verbatim tools/list result, and answers a run's mcp_local call through tools/call", async () => {
    const client = await connectedClient();
    try {
      const definition = await mcpServerFrom("hosts", client);
      expect(definition.serverInfo).toEqual(client.getServerVersion());
      expect(definition.tools).toEqual((await client.listTools()).tools);
      expect(definition.tools.map((t) => t.name)).toEqual(["read_hosts", "fail"]);

      const tools = new ToolRegistry().mcpLocal(definition);
      const terminal = await runAgent(
        clientFor(mantyx()),
        {
          systemPrompt: "You are helpful.",
          prompt: "hosts",
          metadata: { args: JSON.stringify({ path: "/etc/hosts" }) },
        },
        { tools },
      );
      expect((terminal.data as { text: string }).text).toBe("Tool said: read /etc/hosts:\n127.0.0.1 localhost");
      const spec = [...mantyx().runs.values()].pop()!.spec as { tools: unknown[] };
      expect(spec.tools).toEqual([
        { kind: "mcp_local", name: "hosts", serverInfo: client.getServerVersion(), tools: definition.tools },
      ]);
    } finally {
      await client.close();
    }
  });

  it("reads every page of tools/list, and refuses a client that is not connected or a cursor handed out twice", async () => {
    const pages: Record<string, { tools: Array<{ name: string }>; nextCursor?: string }> = {
      start: { tools: [{ name: "a" }], nextCursor: "p2" },
      p2: { tools: [{ name: "b" }], nextCursor: "p3" },
      p3: { tools: [{ name: "c" }] },
    };
    const paged = (book: typeof pages, info?: { name: string }): McpClientLike => ({
      getServerVersion: () => info,
      listTools: async (params) => book[params?.cursor ?? "start"]!,
      callTool: async () => ({ content: [] }),
    });
    expect((await mcpServerFrom("p", paged(pages, { name: "paged" }))).tools.map((t) => t.name)).toEqual([
      "a",
      "b",
      "c",
    ]);
    // An empty cursor (or null, from a server that sends it) ends the list too.
    expect(
      (await mcpServerFrom("p", paged({ ...pages, p3: { tools: [{ name: "c" }], nextCursor: "" } }, { name: "paged" })))
        .tools,
    ).toHaveLength(3);
    await expect(mcpServerFrom("p", paged(pages))).rejects.toThrow(
      /MCP server "p": the client has no serverInfo; await client.connect\(transport\)/,
    );
    const looping = { ...pages, p3: { tools: [{ name: "c" }], nextCursor: "p2" } };
    await expect(mcpServerFrom("p", paged(looping, { name: "loop" }))).rejects.toThrow(
      /tools\/list returned the cursor "p2" twice/,
    );
  });
});
