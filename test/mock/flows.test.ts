/**
 * Every flow case of the fixture suite, played by the mock when a run's
 * `metadata.scenario` names it, driven by the generated client over real
 * HTTP: each run streams the flow's transcript (same event types, in
 * order, seqs from 1), a tool call the flow answers waits for the client's
 * result and mirrors it, a `cancelled` comes from POST /cancel, and a
 * session's n-th message plays the flow's n-th run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import type { AgentRunEvent } from "../../generated/types.js";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";

type Step = { kind: string; request?: { operationId?: string; body?: Record<string, unknown> } };
type Flow = { steps: Step[]; runs: Array<{ events: Array<{ type: string; data: Record<string, unknown> }> }> };

const dir = new URL("../../generated/fixtures/flows/", import.meta.url);
const flows = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(new URL(f, dir), "utf8")) as Flow] as const);

let server: MockServer;
let client: MantyxClient;
beforeAll(async () => {
  server = await startMockServer({ edition: "2026-09" });
  client = new MantyxClient({
    baseUrl: server.url,
    workspace: server.workspace,
    apiKey: server.apiKey,
    validation: "off",
    onWarning: () => undefined,
  });
});
afterAll(() => server.close());

/** Streams a run, answering the tool calls the flow answers and cancelling where the flow cancels. */
async function drive(runId: string, flow: Flow, run: Flow["runs"][number]): Promise<AgentRunEvent[]> {
  const answered = new Set(run.events.filter((e) => e.type === "local_tool_result_in").map((e) => e.data["toolUseId"]));
  const cancels = flow.steps.some((s) => s.request?.operationId === "cancelRun");
  const events: AgentRunEvent[] = [];
  for await (const event of client.streamRun(runId)) {
    events.push(event);
    if (event.type !== "local_tool_call") continue;
    const toolUseId = (event.data as { toolUseId: string }).toolUseId;
    if (answered.has(toolUseId)) await client.postToolResult(runId, { toolUseId, result: `answer for ${toolUseId}` });
    else if (cancels) await client.cancelRun(runId);
  }
  return events;
}

describe("the suite's flow cases, played by metadata.scenario", () => {
  it("finds every flow", () => expect(flows.length).toBeGreaterThanOrEqual(10));

  for (const [name, flow] of flows) {
    it(name, async () => {
      const opening = flow.steps.find((s) => s.kind === "http")!.request!;
      const scenario = { scenario: name };
      if (opening.operationId === "createSession") {
        const { sessionId } = await client.createSession({
          ...(opening.body as object),
          metadata: { ...((opening.body?.["metadata"] as object) ?? {}), ...scenario },
        } as never);
        const messages = flow.steps.filter((s) => s.request?.operationId === "sendSessionMessage");
        expect(messages.length).toBe(flow.runs.length);
        for (const [i, step] of messages.entries()) {
          const { runId } = await client.sendSessionMessage(sessionId, step.request!.body as never);
          const events = await drive(runId, flow, flow.runs[i]!);
          expect(events.map((e) => e.type)).toEqual(flow.runs[i]!.events.map((e) => e.type));
        }
        return;
      }
      const body = {
        ...(opening.body as object),
        metadata: { ...((opening.body?.["metadata"] as object) ?? {}), ...scenario },
      };
      const { runId } = await client.createRun(body as never);
      const events = await drive(runId, flow, flow.runs[0]!);
      expect(events.map((e) => e.type)).toEqual(flow.runs[0]!.events.map((e) => e.type));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      for (const mirror of events.filter((e) => e.type === "local_tool_result_in")) {
        expect(mirror.data).toMatchObject({ result: `answer for ${(mirror.data as { toolUseId: string }).toolUseId}` });
      }
    });
  }
});

describe("terminal events from the schema", () => {
  it("the run ends on the types the schema marks x-terminal (result, error, cancelled), read from the bundled document", async () => {
    const { terminalEventTypes, mantyxDocument } = await import("../../generator/mock/artefacts.js");
    expect([...terminalEventTypes(mantyxDocument())].sort()).toEqual(["cancelled", "error", "result"]);
    const doc = mantyxDocument();
    delete (doc.components!.schemas!["CancelledEvent"] as Record<string, unknown>)["x-terminal"];
    expect([...terminalEventTypes(doc)].sort()).toEqual(["error", "result"]);
  });
});
