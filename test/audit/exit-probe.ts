/**
 * Runs one runAgent against the audit server at argv[2] (key argv[3]) and
 * returns without process.exit: the process ends only when the client left
 * nothing behind (a timer, a socket, a listener keeping the loop alive).
 * argv[4] picks the run: "late" (a handler finishing after the terminal
 * event: its 409), "faults" (drops and a stall on the way).
 */
import { MantyxClient } from "../../generated/client.js";
import { runAgent, ToolRegistry } from "../../index.js";

const [url, apiKey, kind] = process.argv.slice(2) as [string, string, string];
const client = new MantyxClient({ baseUrl: url, workspace: "acme", apiKey, onWarning: () => undefined });
const tools = new ToolRegistry().local({
  name: "add",
  parameters: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
  handler: async ({ a }: { a: number }) => {
    await new Promise((r) => setTimeout(r, kind === "late" ? 400 : 0));
    return String(a);
  },
});
const outcomes: string[] = [];
const terminal = await runAgent(
  client,
  { systemPrompt: "s", prompt: "p" },
  { tools, idleTimeoutMs: 400, onToolResult: (_c, o) => void outcomes.push(o.status) },
);
console.log(JSON.stringify({ terminal: terminal.type, outcomes }));
