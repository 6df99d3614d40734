/**
 * The credential never leaves the client in what it reports. An echoing
 * server (test/mock-server/echo-server.ts) reflects it into every status
 * text, header, content type, body, SSE frame and redirect it can, raw,
 * JSON-escaped, URL-encoded and base64 (at every alignment); no form of it
 * may appear in any error's message, stack, JSON or `util.inspect` output,
 * in its cause chain, or in a warning (message or detail), whatever the
 * operation, credential header, `onInvalid` and `validation` modes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { redactor, secretForms } from "../../runtime/client/internal/redact.js";
import type { ClientOptions } from "../../index.js";
import { echoForms, startEchoServer, type EchoMode, type EchoServer } from "../mock-server/echo-server.js";
import { collect } from "./helpers.js";
import { shown } from "./shown.js";

/** Reserved URL characters, a quote and a backslash (JSON escapes them), a space (URL encodes it): every encoding differs from the raw key. */
const KEY = 'mantyx_s3cr3t/"q\\u+o=te&?#%41 end';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEchoServer();
});
afterAll(() => echo.close());

function expectNoForm(label: string, value: unknown): void {
  const text = shown(value);
  for (const form of echoForms(KEY))
    expect({ label, leaked: text.includes(form) ? form : null }).toEqual({ label, leaked: null });
}

function client(options: Partial<ClientOptions>, warnings: unknown[]): MantyxClient {
  return new MantyxClient({
    baseUrl: echo.url,
    workspace: "acme",
    apiKey: KEY,
    maxRetries: 0,
    reconnectDelay: { initialDelayMs: 1, maxDelayMs: 2 },
    onWarning: (message, detail) => warnings.push(message, detail),
    ...options,
  });
}

/** Every call of the client, each returning what it threw (or delivered, for a stream with onInvalid "deliver"). */
const CALLS: Array<[string, (c: MantyxClient) => Promise<unknown[]>]> = [
  [
    "createRun",
    async (c) => [await c.createRun({ systemPrompt: "You are helpful.", prompt: "x" }).catch((e: unknown) => e)],
  ],
  ["getRun", async (c) => [await c.getRun("run_1").catch((e: unknown) => e)]],
  [
    "postToolResult",
    async (c) => [
      await c.postToolResult("run_1", { toolUseId: "tu_1", result: "r" }).then(
        (o) => ("error" in o ? o.error : o),
        (e: unknown) => e,
      ),
    ],
  ],
  [
    "streamRun",
    async (c) => {
      const reported: unknown[] = [];
      const items = await collect(
        c.streamRun("run_1", { maxReconnects: 1, onReconnect: (info) => reported.push(info) }),
      ).catch((e: unknown) => [e]);
      return [...items, ...reported];
    },
  ],
  [
    "streamRun (onInvalid: deliver)",
    async (c) => collect(c.streamRun("run_1", { maxReconnects: 1, onInvalid: "deliver" })).catch((e: unknown) => [e]),
  ],
  [
    "streamRun (onInvalid: skip-and-warn)",
    async (c) =>
      collect(c.streamRun("run_1", { maxReconnects: 1, onInvalid: "skip-and-warn" })).catch((e: unknown) => [e]),
  ],
];

const MODES: EchoMode[] = ["error", "ok-wrong-type", "frames", "redirect", "redirect-refused", "redirect-invalid"];

describe("an echoing server never gets the credential into an error or a log line", () => {
  for (const mode of MODES) {
    it(`mode ${mode}: every operation, both credential headers, every validation mode`, async () => {
      echo.mode = mode;
      let reported = 0;
      for (const credentialHeader of ["authorization", "x-api-key"] as const) {
        for (const validation of ["throw", "warn", "off"] as const) {
          for (const [name, call] of CALLS) {
            const warnings: unknown[] = [];
            const got = await call(client({ credentialHeader, validation }, warnings));
            // (Events are the server's data, delivered as sent; errors and outcomes are the client's reports.)
            for (const item of got)
              if (item instanceof Error || typeof (item as { seq?: unknown })?.seq !== "number")
                expectNoForm(`${mode} ${credentialHeader} ${validation} ${name}`, item);
            for (const w of warnings) expectNoForm(`${mode} ${credentialHeader} ${validation} ${name} (warning)`, w);
            reported += got.filter((g) => g instanceof Error).length + warnings.length;
          }
        }
      }
      // The calls did fail, or warn: there was something to leak into.
      expect(reported).toBeGreaterThan(20);
    }, 60_000);
  }

  it("a malformed frame delivered with its credential removed keeps the frame shape it came in", async () => {
    echo.mode = "frames";
    const items = await collect(client({}, []).streamRun("run_1", { maxReconnects: 1, onInvalid: "deliver" })).catch(
      (e: unknown) => [e],
    );
    // Frame 1 is an envelope whose payload echoes the key (an invalid event): redacted, and still read as an envelope.
    const invalid = items.find((i) => i instanceof Error && (i as { type?: unknown }).type === "invalid-event") as
      | (Error & { shape?: unknown })
      | undefined;
    expect(invalid).toBeDefined();
    expectNoForm("redacted invalid event", invalid);
    expect(invalid!.shape).toBe("envelope");
  });

  it("the echo reaches the client in every form (so the test above can fail)", async () => {
    echo.mode = "error";
    const response = await fetch(`${echo.url}/x`, { headers: { authorization: `Bearer ${KEY}` } });
    const text = (await response.text()) + [...response.headers.values()].join(" ") + response.statusText;
    for (const form of echoForms(KEY)) expect(text).toContain(form);
  });

  it("a credential passed as a per-call header is redacted too", async () => {
    echo.mode = "ok-wrong-type";
    const warnings: unknown[] = [];
    const c = client({ apiKey: undefined }, warnings);
    const e = await c.getRun("run_1", { headers: { "x-api-key": KEY } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expectNoForm("per-call header", e);
  });
});

describe("the forms a credential is redacted in", () => {
  it("include a query string's form encoding (URLSearchParams escapes !'()~ and writes a space as +), which encodeURIComponent does not give", () => {
    const key = "mantyx_k!e'y(1)~ two";
    const form = new URLSearchParams({ k: key }).toString().slice(2);
    expect(form).not.toBe(encodeURIComponent(key).replace(/%20/g, "+"));
    expect(redactor(secretForms(key))(`echo ${form} end`)).toBe("echo [redacted] end");
  });
});
