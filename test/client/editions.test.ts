/**
 * Our client completes a one-shot run with a local tool against the mock
 * serving each edition (the seed's `ok: true` and the October documents'
 * `subtype: "success"` terminal) in each frame shape (the documents'
 * envelope, the official SDKs' flattened frame, and the flattened frame with
 * the type only on the `event:` line), over real HTTP.
 */
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { runAgent, runOutcome, ToolRegistry } from "../../index.js";
import { startMockServer } from "../../generator/mock/index.js";

const EDITIONS = ["2026-09", "2026-10"] as const;
const FRAMES = ["envelope", "flat", "flat-untyped"] as const;

describe("a one-shot run with a local tool, every edition and frame shape", () => {
  for (const edition of EDITIONS) {
    for (const frames of FRAMES) {
      it(`edition ${edition}, ${frames} frames: the tool is answered once and the run succeeds`, async () => {
        const server = await startMockServer({ edition, frames });
        try {
          const client = new MantyxClient({ baseUrl: server.url, workspace: server.workspace, apiKey: server.apiKey });
          const calls: unknown[] = [];
          const tools = new ToolRegistry().local({
            name: "compute_total",
            description: "Add tax.",
            parameters: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
            handler: (args: { amount: number }) => {
              calls.push(args);
              return { total: args.amount * 1.2 };
            },
          });
          const types: string[] = [];
          const terminal = await runAgent(
            client,
            {
              systemPrompt: "You are a cashier.",
              prompt: "42 with tax?",
              metadata: { args: JSON.stringify({ amount: 42 }) },
            },
            { tools, onEvent: (e) => void types.push(String((e as { type: unknown }).type)) },
          );
          expect(calls).toEqual([{ amount: 42 }]);
          expect(types).toContain("local_tool_call");
          expect(terminal.type).toBe("result");
          expect(terminal.data).toMatchObject(edition === "2026-10" ? { subtype: "success" } : { ok: true });
          expect(runOutcome(terminal)).toBe("succeeded");
          expect(server.requests.filter((r) => r.path.endsWith("/tool-results"))).toHaveLength(1);
        } finally {
          await server.close();
        }
      });
    }
  }
});
