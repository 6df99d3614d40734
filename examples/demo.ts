/**
 * `npm run demo`: starts the shipped mock (`mantyx-wire mock --port 0`,
 * through the command's own code) on 127.0.0.1, runs an agent with one
 * local tool through the generated client, and prints each event.
 */
import { MantyxClient } from "../generated/client.js";
import { runCli } from "../generator/cli.js";
import { runAgent, runOutcome, ToolRegistry } from "../index.js";

const workspace = "demo";
const apiKey = "mantyx_test";
const stop = new AbortController();
let announced: (url: string) => void = () => undefined;
const url = new Promise<string>((resolve) => (announced = resolve));
const mock = runCli(["mock", "--port", "0", "--quiet", "--workspace", workspace, "--api-key", apiKey], {
  // The command prints its URL as the first line of stdout.
  stdout: (text) => announced(text.split("\n")[0]!),
  stderr: (text) => void process.stderr.write(text),
  cwd: process.cwd(),
  stop: stop.signal,
});
const exitedEarly = mock.then((code) => {
  throw new Error(`mantyx-wire mock exited with ${code} before it served`);
});
try {
  const client = new MantyxClient({ baseUrl: await Promise.race([url, exitedEarly]), workspace, apiKey });

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
      onToolResult: (call, outcome) =>
        console.log(`# posted the result of ${call.name} (${call.toolUseId}): ${outcome.status}`),
    },
  );
  console.log(
    `# run ${runOutcome(terminal)}: ${JSON.stringify((terminal.data as { text?: string }).text ?? terminal.data)}`,
  );
} finally {
  stop.abort();
  await mock;
}
