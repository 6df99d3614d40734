/**
 * `npm run demo`: starts the mock MANTYX server on 127.0.0.1, runs an agent
 * with one local tool through the generated client, and prints each event.
 */
import { MantyxClient } from "../generated/client.js";
import { runAgent, runOutcome, ToolRegistry } from "../index.js";
import { startMockServer } from "../generator/mock/index.js";

const server = await startMockServer();
try {
  const client = new MantyxClient({ baseUrl: server.url, workspace: server.workspace, apiKey: server.apiKey });

  const tools = new ToolRegistry().local({
    name: "compute_total",
    description: "Add up an amount with tax.",
    parameters: {
      type: "object",
      properties: { amount: { type: "number" }, currency: { type: "string", enum: ["USD", "EUR"] } },
      required: ["amount", "currency"],
      additionalProperties: false,
    },
    handler: ({ amount, currency }: { amount: number; currency: string }) => ({ total: amount * 1.2, currency }),
  });

  const terminal = await runAgent(
    client,
    {
      modelId: "platform:demo",
      systemPrompt: "You are a cashier.",
      prompt: "What is 42 USD with tax?",
      metadata: { args: JSON.stringify({ amount: 42, currency: "USD" }) },
    },
    {
      tools,
      onEvent: (event) => console.log(JSON.stringify(event)),
      onToolResult: (call, outcome) => console.log(`# posted the result of ${call.name} (${call.toolUseId}): ${outcome.status}`),
    },
  );
  console.log(`# run ${runOutcome(terminal)}: ${JSON.stringify((terminal.data as { text?: string }).text ?? terminal.data)}`);
} finally {
  await server.close();
}
