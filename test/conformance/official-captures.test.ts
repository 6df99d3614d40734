/**
 * The SSE bodies the official MANTYX SDKs' own test suites serve
 * (`../shared/captures/official-sdk/`, recorded byte for byte; its README
 * says where each comes from), read by this package as an application
 * reads them, at the defaults:
 *
 * - every stream in both SSE framings (runtime/sse/framing.ts and
 *   framing.browser.ts, fed byte by byte and whole), each message through
 *   the typed event layer: all 196 events delivered, and the ten that break
 *   a documented rule reported once each through the warning hook, naming
 *   the section; the strict level refuses those ten;
 * - each stream over real HTTP (a server on 127.0.0.1 that writes the
 *   recorded body as it is): `streamRun` and `runAgent` complete with the
 *   terminal event, whose outcome (`runOutcome`) is the expected one, and
 *   `runAgent` answers every tool call with exactly one POST (an
 *   `a2a_local` call without its Agent Card goes to the peer registered
 *   under its name, or gets a tool error); a tolerated event that a
 *   reconnect replays is reported once.
 *
 * The captures are read at test time, never copied into the repository.
 * Without them the suite fails under CI (which has `../shared`), and is
 * skipped elsewhere with the reason in its name. (Also run on the browser
 * variants: vitest.config.ts, project `browser-variants`.)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { decodeEventMessage, decodeEvents, isTerminalEvent, type TerminalEvent } from "../../generated/events.js";
import type { AgentRunEvent, LocalToolCallEvent } from "../../generated/types.js";
import { validateAgentRunEvent } from "../../generated/validators/agent-run-event.js";
import { validateAgentRunEventReceive } from "../../generated/validators/agent-run-event.receive.js";
import { runAgent, runOutcome, ToolRegistry, type RunOutcome } from "../../index.js";
import { StreamDecodeError } from "../../runtime/events/errors.js";
import { toEnvelope } from "../../runtime/events/frame-shape.js";
import type { SseMessage } from "../../runtime/sse/index.js";
import { decoder as serverFraming } from "../../runtime/sse/framing.js";
import { decoder as browserFraming } from "../../runtime/sse/framing.browser.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CAPTURES = resolve(REPO, "../shared/captures/official-sdk");
const PRESENT = existsSync(join(CAPTURES, "README.md"));
const IN_CI = process.env["CI"] === "true";

interface Capture {
  /** `ts/26861-20.sse`: the file, relative to the captures folder. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

function loadCaptures(): Capture[] {
  const out: Capture[] = [];
  for (const sdk of ["ts", "go", "py"]) {
    for (const file of readdirSync(join(CAPTURES, sdk))
      .filter((f) => f.endsWith(".sse"))
      .sort()) {
      out.push({ name: `${sdk}/${file}`, bytes: new Uint8Array(readFileSync(join(CAPTURES, sdk, file))) });
    }
  }
  return out;
}

/**
 * The ten events that break a documented rule, by capture, and the section
 * their warning names (docs/schema-decisions.md, "What the official SDKs'
 * servers send").
 */
const BROKEN: Readonly<Record<string, string>> = {
  // tokens without reasoningTokens (and buckets that are null or a string)
  "ts/26885-10.sse": "wire-protocol.md §4.8.1",
  "go/31049-16.sse": "wire-protocol.md §4.8.1",
  "py/27713-17.sse": "wire-protocol.md §4.8.1",
  // error without code
  "ts/26885-9.sse": "wire-protocol.md §4.8",
  "go/31049-15.sse": "wire-protocol.md §4.8",
  "py/27713-16.sse": "wire-protocol.md §4.8",
  // a2a_local call without agentCard
  "ts/26861-20.sse": "wire-protocol.md §4.3.2",
  "go/31049-55.sse": "wire-protocol.md §4.3.2",
  "py/27713-48.sse": "wire-protocol.md §4.3.2",
  // result with neither ok nor subtype
  "ts/26924-7.sse": "wire-protocol.md §4.8",
};

/** The outcome of a terminal event as the documents decide it, read from the raw JSON (independently of runOutcome). */
function expectedOutcome(event: { type: string; data: Record<string, unknown> }): RunOutcome {
  if (event.type === "cancelled") return "cancelled";
  if (event.type === "error") return "failed";
  const { ok, subtype, error } = event.data;
  if (ok === false) return "failed";
  if (typeof subtype === "string") return subtype.startsWith("error_") ? "failed" : "succeeded";
  if (ok === true) return "succeeded";
  // Neither marker (docs/schema-decisions.md): a success, unless it carries an error message.
  return typeof error === "string" && error !== "" ? "failed" : "succeeded";
}

/** The SSE messages of `chunks` through one framing (the parser's callbacks, as the decoder builds them). */
function messagesOf(framing: typeof serverFraming, chunks: readonly Uint8Array[]): SseMessage[] {
  const out: SseMessage[] = [];
  const feed = framing(
    { onMessage: (m) => out.push(m), onRetry: () => undefined, onComment: () => undefined },
    1 << 20,
  );
  for (const chunk of chunks) feed(chunk);
  return out;
}

/** The byte offset just after the first frame (its blank line) of an SSE body. */
function firstFrameEnd(bytes: Uint8Array): number {
  const text = new TextDecoder().decode(bytes);
  const end = /\r\n\r\n|\n\n|\r\r/.exec(text);
  if (end === null) throw new Error("no complete frame");
  return new TextEncoder().encode(text.slice(0, end.index + end[0].length)).length;
}

const bytewise = (bytes: Uint8Array): Uint8Array[] => [...bytes].map((b) => Uint8Array.of(b));

function bodyOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice());
      controller.close();
    },
  });
}

/** The parsed frame's envelope, as it arrived (before the receive level read anything into it). */
const rawEnvelope = (message: SseMessage): Record<string, unknown> =>
  toEnvelope(JSON.parse(message.data), "data", message.event)[0] as Record<string, unknown>;

if (!PRESENT) {
  if (IN_CI) {
    it("finds the official SDK captures (CI has ../shared)", () => {
      throw new Error(
        `The official SDK captures are missing: ${CAPTURES} (CI=true). They are read at test time from ../shared/captures/official-sdk/.`,
      );
    });
  } else {
    it.skip(`official SDK captures: skipped, ${CAPTURES} is absent and CI is not "true"`, () => undefined);
  }
} else {
  describe("the official SDKs' captured streams", () => {
    const captures = loadCaptures();

    // The README's "155" counts the three index.jsonl files too: 152 bodies, each listed in its SDK's index.
    it("are all there: 152 streams (each in its SDK's index.jsonl), 196 events", () => {
      expect(captures.length).toBe(152);
      const indexed = ["ts", "go", "py"].flatMap((sdk) =>
        readFileSync(join(CAPTURES, sdk, "index.jsonl"), "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map((line) => `${sdk}/${(JSON.parse(line) as { file: string }).file.split("/").at(-1)}`),
      );
      expect(indexed.sort()).toEqual(captures.map((c) => c.name).sort());
      const events = captures.reduce((n, c) => n + messagesOf(serverFraming, [c.bytes]).length, 0);
      expect(events).toBe(196);
    });

    it("decode to the same messages in both framings, whole and byte by byte, and every event is delivered", () => {
      let delivered = 0;
      for (const { name, bytes } of captures) {
        const server = messagesOf(serverFraming, [bytes]);
        expect(messagesOf(serverFraming, bytewise(bytes)), name).toEqual(server);
        expect(messagesOf(browserFraming, [bytes]), name).toEqual(server);
        expect(messagesOf(browserFraming, bytewise(bytes)), name).toEqual(server);
        for (const message of server) {
          const warnings: string[] = [];
          const item = decodeEventMessage(message, { onWarning: (m) => warnings.push(m) });
          expect(item instanceof StreamDecodeError ? item.message : "delivered", `${name} #${message.id}`).toBe(
            "delivered",
          );
          delivered++;
        }
      }
      expect(delivered).toBe(196);
    });

    it("at the default level, delivers all 196 as typed events and reports each broken rule once, naming its section", async () => {
      const warned: Array<{ name: string; message: string; detail: StreamDecodeError }> = [];
      let delivered = 0;
      for (const { name, bytes } of captures) {
        // decodeEvents at its defaults (receive level, onInvalid "throw"): a rejected event would throw here.
        for await (const event of decodeEvents(bodyOf(bytes), {
          onWarning: (message, detail) => warned.push({ name, message, detail }),
        })) {
          delivered++;
          // What the type promises holds for what was delivered (the receive level read the documented values in).
          expect(validateAgentRunEventReceive(structuredClone(event)), name).toBe(true);
          if (event.type === "result" || event.type === "error") {
            const tokens = event.data.tokens;
            if (tokens !== undefined)
              for (const k of ["inputTokens", "cachedTokens", "reasoningTokens", "outputTokens"] as const)
                expect(typeof tokens[k], `${name} ${k}`).toBe("number");
          }
          if (event.type === "error") expect(typeof event.data.code, name).toBe("string");
        }
      }
      expect(delivered).toBe(196);
      expect(warned.map((w) => w.name).sort()).toEqual(Object.keys(BROKEN).sort());
      for (const { name, message, detail } of warned) {
        expect(message, name).toContain(BROKEN[name]);
        expect(detail.type).toBe("strict-only");
        expect(
          detail.issues.map((i) => i.params["section"]),
          name,
        ).toEqual([BROKEN[name]]);
      }
    });

    it("reads the documented values into what the SDKs' servers left out", async () => {
      const first = async (name: string): Promise<AgentRunEvent> => {
        const capture = captures.find((c) => c.name === name)!;
        for await (const event of decodeEvents(bodyOf(capture.bytes), { onWarning: () => undefined })) return event;
        throw new Error(`${name}: no event`);
      };
      // tokens: a missing or unreadable bucket is 0 ("0, never null", §4.8.1); a number is kept as sent.
      const result = await first("py/27713-17.sse");
      expect(result.type === "result" && result.data.tokens).toEqual({
        inputTokens: -10,
        cachedTokens: 0,
        outputTokens: 12.7,
        reasoningTokens: 0,
      });
      const nullBucket = await first("ts/26885-10.sse");
      expect(nullBucket.type === "result" && nullBucket.data.tokens?.cachedTokens).toBe(0);
      // error without code: code is errorClass (§4.8: "equals errorClass when present").
      const error = await first("go/31049-15.sse");
      expect(error.type === "error" && [error.data.code, error.data.errorClass]).toEqual(["truncation", "truncation"]);
      // a2a_local without agentCard: delivered as an a2a_local call, its card absent (the type says it may be).
      const call = await first("py/27713-48.sse");
      expect(call.type === "local_tool_call" && call.data.kind === "a2a_local" && call.data.agentCard).toBe(undefined);
      expect(call.type === "local_tool_call" && call.data.kind).toBe("a2a_local");
    });

    it("the strict level refuses exactly those ten events as they arrived, and names the section when it checks a stream", async () => {
      const refused: string[] = [];
      for (const { name, bytes } of captures) {
        for (const message of messagesOf(serverFraming, [bytes])) {
          const raw = rawEnvelope(message);
          if (!validateAgentRunEvent(raw) && BROKEN[name] !== undefined) refused.push(name);
        }
      }
      expect(refused.sort()).toEqual(Object.keys(BROKEN).sort());
      for (const name of Object.keys(BROKEN)) {
        const capture = captures.find((c) => c.name === name)!;
        const warnings: string[] = [];
        for await (const _ of decodeEvents(bodyOf(capture.bytes), {
          strict: validateAgentRunEvent,
          onWarning: (m) => warnings.push(m),
        }))
          void _;
        expect(warnings, name).toHaveLength(1);
        expect(warnings[0], name).toContain(BROKEN[name]);
      }
    });

    it("runOutcome decides every captured terminal event as the documents do", async () => {
      const outcomes: Record<string, number> = {};
      for (const { name, bytes } of captures) {
        const messages = messagesOf(serverFraming, [bytes]);
        const last = messages[messages.length - 1]!;
        const raw = rawEnvelope(last) as { type: string; data: Record<string, unknown> };
        const event = decodeEventMessage(last, { onWarning: () => undefined });
        if (event instanceof StreamDecodeError || !isTerminalEvent(event))
          throw new Error(`${name}: its last event is not a delivered terminal event`);
        const outcome = runOutcome(event);
        expect(outcome, name).toBe(expectedOutcome(raw));
        outcomes[outcome!] = (outcomes[outcome!] ?? 0) + 1;
      }
      // The marker-less result (ts/26924-7: `{ "text": "ok" }`) is a success.
      const markerless = captures.find((c) => c.name === "ts/26924-7.sse")!;
      const terminal = decodeEventMessage(messagesOf(serverFraming, [markerless.bytes])[0]!, {
        onWarning: () => undefined,
      });
      expect(terminal instanceof StreamDecodeError ? "error" : runOutcome(terminal)).toBe("succeeded");
      expect(Object.keys(outcomes).sort()).toEqual(["failed", "succeeded"]);
    });

    describe("over HTTP (a server writing each recorded body as it is)", () => {
      let server: Server;
      let baseUrl: string;
      /** Tool-result POSTs, by run. */
      const posts = new Map<string, Array<Record<string, unknown>>>();
      const streams = new Map<string, number>();

      beforeAll(async () => {
        const byRun = new Map<string, Capture>(captures.map((c, i) => [`run_${i}`, c]));
        server = createServer((req: IncomingMessage, res: ServerResponse) => {
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => {
            const url = new URL(req.url ?? "/", "http://127.0.0.1");
            const path = url.pathname.replace(/^\/api\/v1\/workspaces\/acme/, "");
            const json = (status: number, body: unknown): void => {
              res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
            };
            if (req.method === "POST" && path === "/agent-runs") {
              const body = JSON.parse(Buffer.concat(chunks).toString()) as { prompt: string };
              const runId = body.prompt;
              return json(202, { runId, streamUrl: `/api/v1/workspaces/acme/agent-runs/${runId}/stream` });
            }
            const m = /^\/agent-runs\/([^/]+)(\/[a-z-]+)?$/.exec(path);
            const capture = m ? byRun.get(m[1]!) : undefined;
            if (m === null || capture === undefined) return json(404, { error: "not_found" });
            const runId = m[1]!;
            if (req.method === "GET" && m[2] === "/stream") {
              const n = (streams.get(runId) ?? 0) + 1;
              streams.set(runId, n);
              res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
              // With `X-Replay`: the first connection ends cleanly after the first frame; the next ignores the resume
              // point and sends the whole body again (at-least-once delivery, wire-protocol.md §10).
              if (req.headers["x-replay"] !== undefined) {
                if (n === 1) return res.end(Buffer.from(capture.bytes.subarray(0, firstFrameEnd(capture.bytes))));
              }
              return res.end(Buffer.from(capture.bytes));
            }
            if (req.method === "POST" && m[2] === "/tool-results") {
              const list = posts.get(runId) ?? [];
              list.push(JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>);
              posts.set(runId, list);
              return json(200, {});
            }
            if (req.method === "POST" && m[2] === "/cancel") return json(200, {});
            if (req.method === "GET" && m[2] === undefined) return json(200, { status: "succeeded" });
            return json(404, { error: "not_found" });
          });
        });
        await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
        baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      afterAll(async () => {
        await new Promise<void>((done) => server.close(() => done()));
      });

      const clientWith = (warnings: string[]): MantyxClient =>
        new MantyxClient({ baseUrl, workspace: "acme", apiKey: "mantyx_test_key", onWarning: (m) => warnings.push(m) });

      it("streamRun completes on every stream with its terminal event, every event delivered once", async () => {
        const warnings: string[] = [];
        const client = clientWith(warnings);
        let delivered = 0;
        for (const [i, { name, bytes }] of captures.entries()) {
          const stream = client.streamRun(`run_${i}`);
          const events: AgentRunEvent[] = [];
          for await (const event of stream) events.push(event);
          const expected = messagesOf(serverFraming, [bytes]).map((m) => rawEnvelope(m)["seq"]);
          expect(
            events.map((e) => e.seq),
            name,
          ).toEqual(expected);
          expect(stream.terminal, name).toBe(events[events.length - 1]);
          expect(runOutcome(stream.terminal!), name).toBe(
            expectedOutcome(
              rawEnvelope(messagesOf(serverFraming, [bytes]).at(-1)!) as {
                type: string;
                data: Record<string, unknown>;
              },
            ),
          );
          delivered += events.length;
        }
        expect(delivered).toBe(196);
        expect(warnings).toHaveLength(10);
        for (const section of new Set(Object.values(BROKEN)))
          expect(warnings.some((w) => w.includes(section))).toBe(true);
      });

      it("reports a tolerated event once when a reconnect replays it", async () => {
        const warnings: string[] = [];
        const client = new MantyxClient({
          baseUrl,
          workspace: "acme",
          apiKey: "mantyx_test_key",
          headers: { "X-Replay": "1" },
          onWarning: (m) => warnings.push(m),
        });
        // The cardless a2a_local calls: each the first frame of its stream, a result after it.
        for (const name of ["ts/26861-20.sse", "go/31049-55.sse", "py/27713-48.sse"]) {
          const i = captures.findIndex((c) => c.name === name);
          streams.delete(`run_${i}`);
          warnings.length = 0;
          const stream = client.streamRun(`run_${i}`);
          const events: AgentRunEvent[] = [];
          for await (const event of stream) events.push(event);
          expect(streams.get(`run_${i}`), name).toBe(2);
          expect(
            events.map((e) => [e.seq, e.type]),
            name,
          ).toEqual([
            [1, "local_tool_call"],
            [2, "result"],
          ]);
          expect(warnings, name).toHaveLength(1);
          expect(warnings[0], name).toContain("wire-protocol.md §4.3.2");
        }
      });

      it("runAgent completes on every stream, answers each tool call with one POST, and reaches the expected outcome", async () => {
        const client = clientWith([]);
        streams.clear();
        const hrCalls: string[] = [];
        // A registry with one a2a_local peer named as the Python capture's call ("ghost"): a call without
        // its Agent Card goes to it by name; the others without a card ("nope") get a tool error.
        const registry = new ToolRegistry().a2aLocal({
          name: "ghost",
          agentCard: { name: "Ghost", url: "https://ghost.invalid/a2a" },
          handler: (message) => {
            hrCalls.push(message);
            return "boo";
          },
        });
        for (const [i, { name, bytes }] of captures.entries()) {
          const runId = `run_${i}`;
          const terminal: TerminalEvent = await runAgent(
            client,
            { systemPrompt: "x", prompt: runId },
            { tools: registry, lateResultTimeoutMs: 5_000 },
          );
          const messages = messagesOf(serverFraming, [bytes]);
          expect(runOutcome(terminal), name).toBe(
            expectedOutcome(rawEnvelope(messages.at(-1)!) as { type: string; data: Record<string, unknown> }),
          );
          const calls = messages
            .map(rawEnvelope)
            .filter((e) => e["type"] === "local_tool_call") as unknown as LocalToolCallEvent[];
          const answered = posts.get(runId) ?? [];
          expect(answered.map((p) => p["toolUseId"]).sort(), name).toEqual(calls.map((c) => c.data.toolUseId).sort());
        }
        // The cardless a2a_local calls: "ghost" dispatched by name; "nope" answered with a tool error.
        expect(hrCalls).toEqual(["hi"]);
        const ghost = captures.findIndex((c) => c.name === "py/27713-48.sse");
        expect(posts.get(`run_${ghost}`)).toEqual([{ toolUseId: "tu_1", result: "boo" }]);
        for (const nope of ["ts/26861-20.sse", "go/31049-55.sse"]) {
          const answer = posts.get(`run_${captures.findIndex((c) => c.name === nope)}`)![0]!;
          expect(answer["error"], nope).toMatch(
            /came without its Agent Card, and no a2a_local peer is registered under that name/,
          );
        }
        // Each stream was read once: nothing reconnected.
        expect(streams.size).toBe(152);
        expect([...streams.values()].every((n) => n === 1)).toBe(true);
      });
    });
  });
}
