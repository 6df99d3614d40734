/**
 * The operation functions (generated/operations.ts) on the small core client
 * (MantyxCore), over real HTTP against the mock server: they do what the
 * all-in-one class's methods do, one function per operation; the
 * unvalidated ones (generated/operations-unvalidated.ts) send a body
 * unchecked and check events for their envelope only.
 */
import { describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import * as checked from "../../generated/operations.js";
import * as unvalidated from "../../generated/operations-unvalidated.js";
import { MantyxCore } from "../../generated/operations.js";
import type { RunCreateRequest } from "../../generated/types.js";
import { RequestValidationError, runAgent, StreamDecodeError, ToolRegistry } from "../../index.js";
import { collect, useMockServer } from "./helpers.js";

const server = useMockServer();

function core(): MantyxCore {
  const s = server();
  return new MantyxCore({
    baseUrl: s.url,
    workspace: s.workspace,
    apiKey: s.apiKey,
    retryDelay: { initialDelayMs: 2, maxDelayMs: 20 },
    reconnectDelay: { initialDelayMs: 2, maxDelayMs: 20 },
  });
}

describe("operation functions on MantyxCore", () => {
  it("export one function per operation of the all-in-one class, and the class's pages", () => {
    const methods = Object.getOwnPropertyNames(MantyxClient.prototype)
      .filter((n) => n !== "constructor")
      .sort();
    for (const flavour of [checked, unvalidated]) {
      const functions = Object.keys(flavour)
        .filter((n) => typeof (flavour as Record<string, unknown>)[n] === "function" && n !== "MantyxCore")
        .sort();
      expect(functions).toEqual(methods);
    }
  });

  for (const [name, ops] of [
    ["checked", checked],
    ["unvalidated", unvalidated],
  ] as const) {
    it(`${name}: createRun, streamRun (to the terminal event), getRun`, async () => {
      const client = core();
      const { runId } = await ops.createRun(client, { systemPrompt: "You are helpful.", prompt: "hi" });
      const stream = ops.streamRun(client, runId);
      const events = await collect(stream);
      expect(events.at(-1)!.type).toBe("result");
      expect(stream.terminal?.type).toBe("result");
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(await ops.getRun(client, runId)).toMatchObject({ status: "succeeded" });
    });
  }

  it("checked: a bad body is a RequestValidationError and is not sent; unvalidated: it is sent as given", async () => {
    const client = core();
    const bad = { prompt: 5 } as unknown as RunCreateRequest;
    const before = server().requests.length;
    const refused = await checked.createRun(client, bad).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect(server().requests.length).toBe(before);
    await unvalidated.createRun(client, bad).catch((e: unknown) => e);
    expect(server().requests.length).toBe(before + 1);
    expect(server().requests.at(-1)!.body).toEqual({ prompt: 5 });
  });

  it("checked: a schema-invalid event is a StreamDecodeError; unvalidated: checked for its envelope only, so it is delivered", async () => {
    const client = core();
    const run = async (): Promise<string> =>
      (
        await checked.createRun(client, {
          systemPrompt: "You are helpful.",
          prompt: "x",
          metadata: { scenario: "invalid" },
        })
      ).runId;
    const seen = await collect(checked.streamRun(client, await run(), { onInvalid: "deliver" }));
    expect(seen.map((i) => (i instanceof StreamDecodeError ? i.type : i.seq))).toEqual([
      1,
      "invalid-json",
      "invalid-event",
      4,
      5,
    ]);
    const plain = await collect(unvalidated.streamRun(client, await run(), { onInvalid: "deliver" }));
    expect(plain.map((i) => (i instanceof StreamDecodeError ? i.type : i.seq))).toEqual([1, "invalid-json", 3, 4, 5]);
    expect(plain[2]).toEqual({ seq: 3, type: "assistant_delta", data: { txet: "missing text" } });
  });

  it("the all-in-one client is a MantyxCore: the functions take it, and share its at-most-once ledger", async () => {
    const s = server();
    const client = new MantyxClient({ baseUrl: s.url, workspace: s.workspace, apiKey: s.apiKey });
    expect(client).toBeInstanceOf(MantyxCore);
    const { runId } = await checked.createRun(client, { systemPrompt: "You are helpful.", prompt: "hi" });
    await s.waitForRun(runId);
    const posts = () => s.requests.filter((r) => r.path.endsWith("/tool-results")).length;
    const before = posts();
    const first = await checked.postToolResult(client, runId, { toolUseId: "tu_once", result: "r" });
    const again = await client.postToolResult(runId, { toolUseId: "tu_once", result: "r" });
    expect(again).toBe(first);
    expect(posts()).toBe(before + 1);
    // The unvalidated function is at most once too (the ledger is the client's, whichever function posts).
    expect(await unvalidated.postToolResult(client, runId, { toolUseId: "tu_once", result: "r" })).toBe(first);
    const other = await unvalidated.postToolResult(client, runId, { toolUseId: "tu_other", result: "r" });
    expect(await unvalidated.postToolResult(client, runId, { toolUseId: "tu_other", result: "again" })).toBe(other);
    expect(posts()).toBe(before + 2);
  });

  it("runAgent runs a local tool round trip on a MantyxCore", async () => {
    const calls: unknown[] = [];
    const tools = new ToolRegistry().local({
      name: "ping",
      handler: () => {
        calls.push("ping");
        return "pong";
      },
    });
    const terminal = await runAgent(core(), { systemPrompt: "You are helpful.", prompt: "ping" }, { tools });
    expect((terminal.data as { text: string }).text).toBe("Tool said: pong");
    expect(terminal.type).toBe("result");
    expect(calls.length).toBe(1);
  });
});
