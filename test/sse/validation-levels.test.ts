/**
 * The event layer's validation levels (schema/CONVENTIONS.md, "Two
 * validation levels"): received events are checked at the receive level by
 * default, so a value only the strict level rejects is delivered without a
 * word; strict checking is an opt-in the program imports, and then such an
 * event is still delivered and reported once through the warning hook. Over
 * real HTTP (the mock's "lenient" scenario) and on single messages.
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { validateAgentRunEvent } from "../../generated/validators/agent-run-event.js";
import { decodeEventMessage } from "../../generated/events.js";
import { isStreamDecodeError, type StreamDecodeError } from "../../runtime/events/index.js";
import type { SseMessage } from "../../runtime/sse/index.js";
import { clientFor, collect, useMockServer } from "../client/helpers.js";

const server = useMockServer();
const msg = (data: unknown): SseMessage => ({ event: "message", data: JSON.stringify(data), id: "9" });
const lenientResult = {
  seq: 9,
  type: "result",
  data: {
    ok: true,
    text: "Done.",
    model: { id: "m", provider: "openai", vendorModelId: "gpt-6", reasoningEffort: "extreme" },
  },
};

async function lenientRun(options: Parameters<typeof clientFor>[1]) {
  const warnings: Array<{ message: string; detail: unknown }> = [];
  const client = clientFor(server(), {
    ...options,
    onWarning: (message, detail) => void warnings.push({ message, detail }),
  });
  const { runId } = await client.createRun({ systemPrompt: "s", prompt: "p", metadata: { scenario: "lenient" } });
  const events = await collect(client.streamRun(runId));
  return { events, warnings };
}

describe("received events: the receive level by default", () => {
  it("delivers a result whose model.reasoningEffort is not a listed value, and a redirect review without its message, with no warning", async () => {
    const { events, warnings } = await lenientRun({});
    expect(events.map((e) => e.type)).toEqual(["supervisor", "assistant_delta", "result"]);
    expect((events[2]!.data as { model: { reasoningEffort: string } }).model.reasoningEffort).toBe("extreme");
    expect(warnings).toEqual([]);
  });

  it("still rejects what the type promises: a missing required field is a StreamDecodeError", () => {
    const item = decodeEventMessage(msg({ seq: 1, type: "assistant_delta", data: {} }));
    expect(isStreamDecodeError(item) && item.type).toBe("invalid-event");
  });
});

describe("strict checking of events: an opt-in", () => {
  it("with strictEvents, each event that fails only the strict level is delivered and reported once, naming the rule", async () => {
    const { events, warnings } = await lenientRun({ strictEvents: validateAgentRunEvent });
    expect(events.map((e) => e.type)).toEqual(["supervisor", "assistant_delta", "result"]);
    expect(warnings).toHaveLength(2);
    const details = warnings.map((w) => w.detail as StreamDecodeError);
    expect(details.map((d) => d.type)).toEqual(["strict-only", "strict-only"]);
    expect(details[0]!.issues[0]).toMatchObject({ keyword: "required", params: { missingProperty: "redirect" } });
    expect(details[1]!.issues[0]).toMatchObject({ keyword: "enum", instancePath: "/data/model/reasoningEffort" });
    expect(warnings[1]!.message).toMatch(/strict-level rule.*reasoningEffort.*delivered/);
  });

  it("an event a reconnect replays is reported once, not again (the server ignoring Last-Event-ID replays the whole log)", async () => {
    server().faults.push("drop-after=1", "ignore-resume");
    const { events, warnings } = await lenientRun({ strictEvents: validateAgentRunEvent });
    expect(events.map((e) => e.type)).toEqual(["supervisor", "assistant_delta", "result"]);
    expect(warnings.map((w) => (w.detail as StreamDecodeError).value)).toMatchObject([
      { type: "supervisor" },
      { type: "result" },
    ]);
  });

  it("a strictly valid event raises no warning; the strict validator is not consulted when the receive level rejects", () => {
    const warnings: string[] = [];
    let calls = 0;
    const strict = Object.assign(
      (d: unknown) => {
        calls++;
        return validateAgentRunEvent(d);
      },
      { errors: null },
    );
    const ok = decodeEventMessage(msg({ seq: 1, type: "assistant_delta", data: { text: "a" } }), {
      strict,
      onWarning: (m) => void warnings.push(m),
    });
    expect(isStreamDecodeError(ok)).toBe(false);
    expect(
      decodeEventMessage(msg({ seq: 2, type: "assistant_delta", data: {} }), {
        strict,
        onWarning: (m) => void warnings.push(m),
      }),
    ).toMatchObject({ type: "invalid-event" });
    expect(calls).toBe(1);
    expect(warnings).toEqual([]);
    const lenient = decodeEventMessage(msg(lenientResult), {
      strict: validateAgentRunEvent,
      onWarning: (m) => void warnings.push(m),
    });
    expect(lenient).toEqual(lenientResult);
    expect(warnings).toHaveLength(1);
  });

  it('validation "off" checks no schema level, strict included', () => {
    const warnings: string[] = [];
    expect(
      decodeEventMessage(msg(lenientResult), {
        validation: "off",
        strict: validateAgentRunEvent,
        onWarning: (m) => void warnings.push(m),
      }),
    ).toEqual(lenientResult);
    expect(warnings).toEqual([]);
  });

  it("a program that does not ask for strict checking does not bundle the strict validator", async () => {
    const bundle = async (contents: string): Promise<string> => {
      const out = await build({
        stdin: { contents, resolveDir: process.cwd(), loader: "ts" },
        bundle: true,
        format: "esm",
        write: false,
        platform: "neutral",
        logLevel: "silent",
      });
      return out.outputFiles[0]!.text;
    };
    // The strict build checks the closed lists; the receive build has no enum check at all.
    const ENUM_CHECK = "must be equal to one of the allowed values";
    const plain = await bundle(`import { decodeEvents } from "./generated/events.ts"; export { decodeEvents };`);
    const opted = await bundle(
      `import { decodeEvents } from "./generated/events.ts"; import { validateAgentRunEvent } from "./generated/validators/agent-run-event.js"; export const run = (s) => decodeEvents(s, { strict: validateAgentRunEvent });`,
    );
    expect(plain).toContain("validateAgentRunEventReceive");
    expect(plain).not.toContain(ENUM_CHECK);
    expect(opted).toContain(ENUM_CHECK);
  });
});
