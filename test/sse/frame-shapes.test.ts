/**
 * Both frame shapes (schema/CONVENTIONS.md, "Frame shapes"): the typed
 * event layer reads the nested envelope and the flattened frame (type from
 * the frame, else from the `event:` line), delivers the same typed event
 * for both and records which shape it saw; over real HTTP, the mock server
 * sends either and the client's stream delivers the same events.
 */
import { describe, expect, it } from "vitest";
import { decodeEventMessage, decodeEvents } from "../../generated/events.js";
import { frameShapeOf, isStreamDecodeError, type StreamDecodeError } from "../../runtime/events/index.js";
import type { SseMessage } from "../../runtime/sse/index.js";
import { clientFor, collect } from "../client/helpers.js";
import { startMockServer, type FrameShape } from "../../generator/mock/index.js";

const msg = (data: unknown, event = "message", id = "7"): SseMessage => ({ event, data: JSON.stringify(data), id });
const envelope = { seq: 7, type: "assistant_delta", data: { text: "Hi" } };

describe("decodeEventMessage reads both frame shapes", () => {
  const cases: Array<[string, SseMessage, "envelope" | "flat"]> = [
    ["the nested envelope", msg(envelope, "assistant_delta"), "envelope"],
    ["a flattened frame with its type", msg({ seq: 7, type: "assistant_delta", text: "Hi" }), "flat"],
    ["a flattened frame typed only by the event: line", msg({ seq: 7, text: "Hi" }, "assistant_delta"), "flat"],
    [
      "a flattened frame whose type wins over a different event: line",
      msg({ seq: 7, type: "assistant_delta", text: "Hi" }, "update"),
      "flat",
    ],
    [
      "an envelope without type, typed by the event: line",
      msg({ seq: 7, data: { text: "Hi" } }, "assistant_delta"),
      "envelope",
    ],
  ];
  it.each(cases)("%s", (_name, message, shape) => {
    const event = decodeEventMessage(message);
    expect(event).toEqual(envelope);
    expect(frameShapeOf(event as object)).toBe(shape);
  });

  it("a flattened terminal event without a payload (cancelled typed by event:) ends the stream", async () => {
    const text = `id: 1\nevent: assistant_delta\ndata: {"seq":1,"text":"a"}\n\nid: 2\nevent: cancelled\ndata: {"seq":2}\n\nid: 3\nevent: assistant_delta\ndata: {"seq":3,"text":"after"}\n\n`;
    const events = await collect(decodeEvents(new Response(text).body!));
    expect(events).toEqual([
      { seq: 1, type: "assistant_delta", data: { text: "a" } },
      { seq: 2, type: "cancelled", data: {} },
    ]);
  });

  it("a flattened frame with no type anywhere (the default event type names none) is an invalid event, with its shape", () => {
    const item = decodeEventMessage(msg({ seq: 7, text: "Hi" }));
    expect(isStreamDecodeError(item)).toBe(true);
    expect(item).toMatchObject({ type: "invalid-event", shape: "flat" });
    expect((item as StreamDecodeError).issues.map((i) => i.params["missingProperty"])).toContain("type");
  });

  it("a flattened frame missing a field its type promises is an invalid event naming it", () => {
    const item = decodeEventMessage(msg({ seq: 7, type: "assistant_delta", txet: "Hi" }));
    expect(item).toMatchObject({ type: "invalid-event", shape: "flat" });
    expect((item as StreamDecodeError).issues[0]).toMatchObject({ keyword: "required", instancePath: "/data" });
  });

  it("the frame's own object is not changed, and a parsed envelope is delivered as parsed", () => {
    const event = decodeEventMessage(msg(envelope, "assistant_delta"));
    expect(Object.keys(event as object)).toEqual(["seq", "type", "data"]);
    expect(frameShapeOf({ ...envelope })).toBeUndefined();
  });
});

describe("a data member decides the shape only as the envelope's one payload (docs/client-faults.md)", () => {
  const call = { toolUseId: "tu_1", name: "add", args: { a: 1 }, kind: "local" };
  it.each([
    ["a string", "extra"],
    ["an object", { nested: 1 }],
    ["an array", [1]],
    ["null", null],
    ["an object shaped like a payload", { toolUseId: "other", name: "x", args: {} }],
  ])("a flat frame whose payload gained a data member (%s) stays flat, its payload whole", (_name, extra) => {
    const event = decodeEventMessage(msg({ seq: 4, type: "local_tool_call", ...call, data: extra }));
    expect(event).toEqual({ seq: 4, type: "local_tool_call", data: { ...call, data: extra } });
    expect(frameShapeOf(event as object)).toBe("flat");
  });

  it("the same rule in the transcript reader and the mock's writer; a payload of one object data has no flat form", async () => {
    const { toEnvelope, toFlat } = await import("../../generator/transcript/frame-shape.js");
    expect(toEnvelope({ seq: 4, type: "t", a: 1, data: { b: 2 } })).toEqual({
      event: { seq: 4, type: "t", data: { a: 1, data: { b: 2 } } },
      shape: "flat",
    });
    expect(toEnvelope({ seq: 4, type: "t", data: "x" })).toEqual({
      event: { seq: 4, type: "t", data: { data: "x" } },
      shape: "flat",
    });
    expect(toEnvelope({ seq: 4, type: "t", data: { b: 2 } }).shape).toBe("envelope");
    expect(toFlat({ seq: 4, type: "t", data: { a: 1, data: { b: 2 } } })).toEqual({
      seq: 4,
      type: "t",
      a: 1,
      data: { b: 2 },
    });
    expect(() => toFlat({ seq: 4, type: "t", data: { data: { b: 2 } } })).toThrow(/no flattened frame/);
    const { frameOf } = await import("../../generator/mock/run-state.js");
    expect(frameOf({ seq: 4, type: "t", data: { a: 1, data: "x" } } as never, "flat")).toContain(
      'data: {"seq":4,"type":"t","a":1,"data":"x"}',
    );
    expect(frameOf({ seq: 4, type: "t", data: { data: { b: 2 } } } as never, "flat")).toContain(
      'data: {"seq":4,"type":"t","data":{"data":{"b":2}}}',
    );
  });
});

describe("the mock server sends either shape; the client delivers the same events", () => {
  const run = async (frames: FrameShape | undefined) => {
    const server = await startMockServer(frames === undefined ? {} : { frames });
    try {
      const client = clientFor(server);
      const { runId } = await client.createRun({ systemPrompt: "s", prompt: "p", metadata: { scenario: "legacy" } });
      const events = await collect(client.streamRun(runId));
      return { events, shapes: events.map((e) => frameShapeOf(e as object)), wire: server.transcript(runId) };
    } finally {
      await server.close();
    }
  };

  it("envelope, flat and flat-untyped give the same events, each recorded with its shape", async () => {
    const nested = await run(undefined);
    const flat = await run("flat");
    const untyped = await run("flat-untyped");
    expect(nested.events.map((e) => e.type)).toEqual([
      "started",
      "tool_call",
      "tool_result",
      "assistant_delta",
      "assistant_message",
      "result",
    ]);
    expect(flat.events).toEqual(nested.events);
    expect(untyped.events).toEqual(nested.events);
    expect(nested.shapes.every((s) => s === "envelope")).toBe(true);
    // `started` carries `{}`: flattened, its frame is just { seq } (+ type).
    expect(flat.shapes.every((s) => s === "flat")).toBe(true);
    expect(untyped.shapes.every((s) => s === "flat")).toBe(true);
    // What went over the wire really differs.
    expect(nested.wire).toContain('"data":{"toolUseId":"tu_srv"');
    expect(flat.wire).toContain('data: {"seq":2,"type":"tool_call","toolUseId":"tu_srv"');
    expect(untyped.wire).toContain('event: tool_call\ndata: {"seq":2,"toolUseId":"tu_srv"');
  });
});

describe("the codegen contract revision that reads flattened frames", () => {
  it("generated/events.ts names its payload member, which revision 3 reads; the runtime provides it (test/layers/contract.test.ts: the check generated code makes)", async () => {
    const { readFileSync } = await import("node:fs");
    const { CODEGEN_V1_REVISION, requireCodegenRevision } = await import("../../runtime/codegen/v1.js");
    const events = readFileSync(new URL("../../generated/events.ts", import.meta.url), "utf8");
    expect(events).toContain('payload: "data"');
    expect(CODEGEN_V1_REVISION).toBeGreaterThanOrEqual(3);
    expect(() => requireCodegenRevision(CODEGEN_V1_REVISION + 1, "mantyx-wire next")).toThrow(
      /needs codegen\/v1 revision \d+; the installed @mantyx\/wire-types has/,
    );
  });
});
