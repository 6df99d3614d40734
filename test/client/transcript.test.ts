/**
 * What the client delivers obeys the sequence rules of a whole run
 * (`x-transcript-rules` on RunTranscript, compiled to generated/transcript.ts):
 * seq strictly increasing, one terminal event and it is last, every
 * local_tool_call answered once. Checked on real runs through the mock
 * server, including runs resumed after cuts.
 */
import { describe, expect, it } from "vitest";
import { validateRunTranscript } from "../../generated/transcript.js";
import type { AgentRunEvent } from "../../generated/types.js";
import { runAgent, StreamDecodeError, ToolRegistry } from "../../index.js";
import { clientFor, collect, useMockServer } from "./helpers.js";

const server = useMockServer({ retryMs: 1 });

function expectValidTranscript(events: AgentRunEvent[]): void {
  const result = validateRunTranscript({ events });
  expect(result.issues).toEqual([]);
  expect(result.valid).toBe(true);
}

describe("delivered runs obey the transcript rules", () => {
  it("a run with a local tool round trip", async () => {
    const client = clientFor(server());
    const events: AgentRunEvent[] = [];
    const tools = new ToolRegistry().local({
      name: "compute_total",
      parameters: { type: "object", properties: { amount: { type: "number" } } },
      handler: () => "42",
    });
    await runAgent(
      client,
      { systemPrompt: "You are helpful.", prompt: "total?", metadata: { args: JSON.stringify({ amount: 1 }) } },
      {
        tools,
        onEvent: (item) => {
          if (!(item instanceof StreamDecodeError)) events.push(item);
        },
      },
    );
    expect(events.some((e) => e.type === "local_tool_call")).toBe(true);
    expectValidTranscript(events);
  });

  it("a run resumed after cuts mid-frame and at event boundaries", async () => {
    const client = clientFor(server());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "count",
      metadata: { scenario: "many", count: "8" },
    });
    await server().waitForRun(runId);
    server().faults.splice(0, server().faults.length, "cut-bytes=57", "drop-after=2", "end-clean=1");
    const items = await collect(client.streamRun(runId, { maxReconnects: 10 }));
    const events = items.filter((i): i is AgentRunEvent => !(i instanceof StreamDecodeError));
    expect(events).toHaveLength(items.length);
    expectValidTranscript(events);
  });

  it("the rules bite: a duplicated event after a resume would be reported", () => {
    const events = [
      { seq: 1, type: "assistant_delta", data: { text: "a" } },
      { seq: 1, type: "assistant_delta", data: { text: "a" } },
      { seq: 2, type: "result", data: { ok: true, text: "a" } },
    ];
    const result = validateRunTranscript({ events });
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => i.rule)).toContain("seq-increasing");
  });
});
