/**
 * streamRun behaviour other than resume: idle timeouts, heartbeats, a 200
 * that is not an event stream, unknown and invalid events, older event
 * shapes, terminal detection and cancellation.
 */
import { describe, expect, it } from "vitest";
import type { AgentRunEvent } from "../../generated/types.js";
import {
  MantyxApiError,
  MantyxConnectionError,
  runOutcome,
  StreamDecodeError,
  UnexpectedResponseError,
} from "../../index.js";
import { clientFor, collect, useMockServer } from "./helpers.js";

const server = useMockServer();

async function runOf(scenario: string, extra: Record<string, string> = {}): Promise<string> {
  const { runId } = await clientFor(server()).createRun({
    systemPrompt: "You are helpful.",
    prompt: scenario,
    metadata: { scenario, ...extra },
  });
  return runId;
}

describe("streamRun", () => {
  it("treats a silent (half-open) connection as a drop after idleTimeoutMs and resumes", async () => {
    const runId = await runOf("text");
    await server().waitForRun(runId);
    server().faults.push("stall=0");
    const reasons: unknown[] = [];
    const started = Date.now();
    const events = await collect(
      clientFor(server()).streamRun(runId, { idleTimeoutMs: 150, onReconnect: (i) => reasons.push(i.reason) }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(runOutcome(events[events.length - 1] as AgentRunEvent)).toBe("succeeded");
    expect(reasons.length).toBeGreaterThanOrEqual(1);
    expect(String((reasons[0] as Error).message)).toMatch(/no bytes for 150 ms/);
  });

  it("keeps a connection whose only traffic is heartbeat comments (they reset the idle timer)", async () => {
    const runId = await runOf("text");
    await server().waitForRun(runId);
    // Silent for 3x the idle timeout, but for heartbeats every 40 ms (margin for a loaded machine).
    server().faults.push("heartbeat=40,delay=1200");
    const first = server().streams.length;
    const events = await collect(clientFor(server()).streamRun(runId, { idleTimeoutMs: 400 }));
    expect(runOutcome(events[events.length - 1] as AgentRunEvent)).toBe("succeeded");
    expect(server().streams.length - first).toBe(1);
  });

  it("does not count the consumer's time as server silence", async () => {
    // A live run (events 30 ms apart): the consumer holds the first event for 3x the idle timeout.
    const runId = await runOf("many", { count: "5", stepMs: "30" });
    const first = server().streams.length;
    const items: unknown[] = [];
    for await (const item of clientFor(server()).streamRun(runId, { idleTimeoutMs: 250 })) {
      items.push(item);
      if (items.length === 1) await new Promise((r) => setTimeout(r, 750));
    }
    expect(items.length).toBe(7);
    expect(server().streams.length - first).toBe(1);
  });

  it("a 200 that is not text/event-stream (a proxy's page) fails the stream at once (WHATWG SSE): the typed error naming the content type, no reconnect", async () => {
    const runId = await runOf("text");
    server().faults.push("wrong-type=json", "wrong-type=json");
    const first = server().streams.length;
    const error = await collect(clientFor(server()).streamRun(runId, { maxReconnects: 2 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).contentType).toMatch(/application\/json/);
    expect(server().streams.length - first).toBe(1);
    expect(server().faults).toEqual(["wrong-type=json"]);
    server().faults.length = 0;
  });

  it("throws MantyxApiError for a 4xx (no retry)", async () => {
    const first = server().streams.length;
    const error = await collect(clientFor(server()).streamRun("run_nope")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MantyxApiError);
    expect(error).toMatchObject({ status: 404, operationId: "streamRun" });
    expect(server().streams.length - first).toBe(0); // 404 before any stream
  });

  it("delivers an event of an unknown type as the open variant", async () => {
    const events = (await collect(clientFor(server()).streamRun(await runOf("unknown-type")))) as AgentRunEvent[];
    const unknown = events.find((e) => String(e.type) === "memory_snapshot");
    expect(unknown).toEqual({ seq: 2, type: "memory_snapshot", data: { bytes: 2048 } });
    expect(runOutcome(events[events.length - 1]!)).toBe("succeeded");
  });

  it("takes the type from the envelope, not from the SSE event: line", async () => {
    // The mock writes `event: <type>`; the "invalid" scenario's bad frames carry a
    // valid-looking event: line, yet are judged by their data alone.
    const items = await collect(clientFor(server()).streamRun(await runOf("invalid"), { onInvalid: "deliver" }));
    const bad = items.filter((i) => i instanceof StreamDecodeError) as StreamDecodeError[];
    expect(bad.map((b) => b.frame.event)).toEqual(["assistant_delta", "assistant_delta"]);
  });

  describe("invalid messages per onInvalid", () => {
    it('"throw" (default): delivers the events before it, then throws StreamDecodeError', async () => {
      const seen: unknown[] = [];
      const error = await (async () => {
        try {
          for await (const e of clientFor(server()).streamRun(await runOf("invalid"))) seen.push(e);
        } catch (e) {
          return e;
        }
      })();
      expect(seen).toEqual([{ seq: 1, type: "assistant_delta", data: { text: "before" } }]);
      expect(error).toBeInstanceOf(StreamDecodeError);
      expect((error as StreamDecodeError).type).toBe("invalid-json");
      expect((error as StreamDecodeError).frame).toMatchObject({ id: "2", data: "{not json" });
    });

    it('"deliver": invalid-json and invalid-event errors are items of the stream, with the raw frame and the issues', async () => {
      const items = await collect(clientFor(server()).streamRun(await runOf("invalid"), { onInvalid: "deliver" }));
      expect(items).toHaveLength(5);
      const [json, shape] = items.filter((i) => i instanceof StreamDecodeError) as StreamDecodeError[];
      expect(json!.name).toBe("StreamDecodeError");
      expect(json!.type).toBe("invalid-json");
      expect(json!.issues).toEqual([]);
      expect(shape!.type).toBe("invalid-event");
      expect(shape!.frame.data).toContain("missing text");
      expect(shape!.issues[0]).toMatchObject({
        instancePath: "/data",
        keyword: "required",
        params: { missingProperty: "text" },
      });
    });

    it('"skip-and-warn": drops them and warns once each', async () => {
      const warnings: string[] = [];
      const client = clientFor(server(), { onWarning: (m) => warnings.push(m) });
      const items = (await collect(
        client.streamRun(await runOf("invalid"), { onInvalid: "skip-and-warn" }),
      )) as AgentRunEvent[];
      expect(items.map((e) => e.seq)).toEqual([1, 4, 5]);
      expect(warnings).toHaveLength(2);
      expect(warnings[0]).toMatch(/skip-and-warn/);
    });

    it('validation "warn" delivers a schema-invalid event that still has an envelope, and reports it', async () => {
      const warnings: string[] = [];
      const client = clientFor(server(), { validation: "warn", onWarning: (m) => warnings.push(m) });
      const items = await collect(client.streamRun(await runOf("invalid"), { onInvalid: "deliver" }));
      expect(items.filter((i) => i instanceof StreamDecodeError)).toHaveLength(1); // only the JSON one
      expect(items[2]).toEqual({ seq: 3, type: "assistant_delta", data: { txet: "missing text" } });
      expect(warnings).toHaveLength(1);
    });
  });

  it("a malformed message without its own id: line (it inherits the previous id) is not mistaken for a replay", async () => {
    const thrown = await collect(clientFor(server()).streamRun(await runOf("invalid-no-id"))).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(StreamDecodeError);
    expect((thrown as StreamDecodeError).frame).toMatchObject({ id: "1", data: "{not json" });

    const items = await collect(clientFor(server()).streamRun(await runOf("invalid-no-id"), { onInvalid: "deliver" }));
    // Two malformed messages in a row both inherit id 1: the second is a new message too, not a replay of the first.
    expect(items.map((i) => (i instanceof StreamDecodeError ? i.type : (i as AgentRunEvent).seq))).toEqual([
      1,
      "invalid-json",
      "invalid-json",
      "invalid-event",
      5,
    ]);
    expect((items[2] as StreamDecodeError).frame).toMatchObject({ id: "1", data: "{not json either" });

    const warnings: string[] = [];
    const skipped = await collect(
      clientFor(server(), { onWarning: (m) => warnings.push(m) }).streamRun(await runOf("invalid-no-id"), {
        onInvalid: "skip-and-warn",
      }),
    );
    expect(skipped.map((i) => (i as AgentRunEvent).seq)).toEqual([1, 5]);
    expect(warnings).toHaveLength(3);
  });

  it("ends on a malformed terminal event (deliver / skip-and-warn) instead of reconnecting", async () => {
    for (const onInvalid of ["deliver", "skip-and-warn"] as const) {
      const first = server().streams.length;
      const stream = clientFor(server()).streamRun(await runOf("invalid-terminal"), { onInvalid });
      const items = await collect(stream);
      expect(items.length).toBe(onInvalid === "deliver" ? 2 : 1);
      expect(stream.terminal).toBeUndefined();
      expect(server().streams.length - first).toBe(1);
      if (onInvalid === "deliver")
        expect((items[1] as StreamDecodeError).value).toEqual({
          seq: 2,
          type: "result",
          data: { ok: "yes", text: "ok is not a boolean" },
        });
    }
  });

  it("reads older event shapes and ends on an older success result", async () => {
    const events = (await collect(clientFor(server()).streamRun(await runOf("legacy")))) as AgentRunEvent[];
    expect(events.map((e) => e.type)).toEqual([
      "started",
      "tool_call",
      "tool_result",
      "assistant_delta",
      "assistant_message",
      "result",
    ]);
    expect(runOutcome(events[events.length - 1]!)).toBe("succeeded");
  });

  it('ends on an older result with subtype "error_…" and reports it as a failure', async () => {
    const stream = clientFor(server()).streamRun(await runOf("legacy-failure"));
    await collect(stream);
    expect(stream.terminal?.type).toBe("result");
    expect(runOutcome(stream.terminal!)).toBe("failed");
  });

  it("cancellation: cancelRun ends the stream with a terminal cancelled event", async () => {
    const client = clientFor(server());
    const runId = await runOf("slow");
    const seen: AgentRunEvent[] = [];
    for await (const e of client.streamRun(runId)) {
      seen.push(e as AgentRunEvent);
      if (seen.length === 1) await client.cancelRun(runId);
    }
    expect(seen.map((e) => e.type)).toEqual(["assistant_delta", "cancelled"]);
    expect(runOutcome(seen[1]!)).toBe("cancelled");
  });

  it("aborting the signal stops the stream with the abort reason and does not reconnect", async () => {
    const client = clientFor(server());
    const runId = await runOf("slow");
    const controller = new AbortController();
    const first = server().streams.length;
    const error = await (async () => {
      try {
        for await (const _ of client.streamRun(runId, { signal: controller.signal }))
          controller.abort(new Error("user stop"));
      } catch (e) {
        return e;
      }
    })();
    expect((error as Error).message).toBe("user stop");
    expect(server().streams.length - first).toBe(1);
    await client.cancelRun(runId);
  });

  it("a caller mistake (no workspace) throws at once instead of reconnecting", async () => {
    const client = clientFor(server(), { workspace: undefined });
    const first = server().streams.length;
    await expect(collect(client.streamRun("run_1"))).rejects.toThrow(/streamRun: pass \{ workspace \}/);
    expect(server().streams.length).toBe(first);
  });

  it("a failing connection (nothing listening) is a MantyxConnectionError after maxReconnects", async () => {
    const client = clientFor(server(), { baseUrl: "http://127.0.0.1:1" });
    const error = await collect(client.streamRun("run_x", { maxReconnects: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MantyxConnectionError);
  });
});
