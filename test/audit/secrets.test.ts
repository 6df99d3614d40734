/**
 * Echoes of the credential that test/client/secrets.test.ts's echoing
 * server does not write: a frame that quotes the key without JSON quotes
 * (the engine's JSON.parse message then quotes a window of the frame, so a
 * fragment of the key), the key JSON-encoded into a frame (its quote
 * escaped as the frame holds it), and JSON escapes other encoders use (`\/`
 * by PHP's json_encode, `\u0026` for `&` by Go's encoding/json). Driven through
 * streamRun in every onInvalid mode, the default console.warn included, and
 * through runAgent.
 */
import { describe, expect, it, vi } from "vitest";
import { MantyxClient } from "../../generated/client.js";
import { runAgent } from "../../index.js";
import { shown } from "../client/shown.js";
import type { Step } from "./fault-server.js";
import { auditServer } from "./support.js";

/** A key with `/`, `&` and `"` (so the escape variants differ from the raw key) and a long secret part. */
const KEY = 'mantyx_Zq9/Xv&Wt3"Rk8Lp2Yh7Nc4';
/** The part after the public `mantyx_` prefix: no 6 characters of it in a row may show. */
const SECRET = KEY.slice("mantyx_".length);
const fragments = (s: string): string[] => Array.from({ length: s.length - 5 }, (_, i) => s.slice(i, i + 6));

const { server } = await auditServer(KEY);

/** No piece of the secret part of the key, raw or JSON-escaped either way. */
function expectNoFragment(label: string, value: unknown): void {
  const text = shown(value);
  const pieces = [
    ...fragments(SECRET),
    ...fragments(JSON.stringify(SECRET).slice(1, -1).replace("/", "\\/")),
    ...fragments(JSON.stringify(SECRET).slice(1, -1).replace("&", "\\u0026")),
  ];
  const leaked = pieces.find((p) => text.includes(p));
  if (leaked && process.env.AUDIT_DEBUG)
    console.log(label, text.slice(Math.max(0, text.indexOf(leaked) - 200), text.indexOf(leaked) + 100));
  expect({ label, leaked: leaked ?? null }).toEqual({ label, leaked: null });
}

const FRAMES: Array<[string, Step]> = [
  [
    "unquoted key (not JSON)",
    { emit: { type: "assistant_delta", rawData: `{"seq":1,"type":"assistant_delta","data":{"text": ${KEY}}}` } },
  ],
  ["the key as the whole data line", { emit: { type: "assistant_delta", rawData: `Bearer ${KEY}` } }],
  [
    "the key pasted into a JSON string unescaped (its quote ends the string)",
    { emit: { type: "assistant_delta", rawData: `{"seq":1,"type":"assistant_delta","data":{"text":"${KEY}"}}` } },
  ],
  [
    "a number glued to the key",
    { emit: { type: "assistant_delta", rawData: `{"seq":1,"type":"assistant_delta","data":{"text": 1${KEY}}}` } },
  ],
  [
    "the key JSON-encoded (a standard echo) in an invalid event",
    {
      emit: {
        type: "assistant_delta",
        rawData: JSON.stringify({ seq: 1, type: "assistant_delta", data: { txt: KEY } }),
      },
    },
  ],
  [
    "PHP-style \\/ escape in an invalid event",
    {
      emit: {
        type: "assistant_delta",
        rawData: `{"seq":1,"type":"assistant_delta","data":{"txt":"${JSON.stringify(KEY).slice(1, -1).replace("/", "\\/")}"}}`,
      },
    },
  ],
  [
    "Go-style \\u0026 escape in an invalid event",
    {
      emit: {
        type: "assistant_delta",
        rawData: `{"seq":1,"type":"assistant_delta","data":{"txt":"${JSON.stringify(KEY).slice(1, -1).replace("&", "\\u0026")}"}}`,
      },
    },
  ],
];

const client = (warnings: unknown[] | undefined): MantyxClient =>
  new MantyxClient({
    baseUrl: server.url,
    workspace: server.workspace,
    apiKey: KEY,
    ...(warnings ? { onWarning: (m: string, d: unknown) => void warnings.push(m, d) } : {}),
  });

describe("fragments and escape variants of an echoed key never reach an error or a warning", () => {
  for (const [name, frame] of FRAMES) {
    for (const mode of ["throw", "deliver", "skip-and-warn", "skip-and-warn, default console.warn"] as const) {
      it(`${name}, onInvalid ${mode}`, async () => {
        server.script = [frame, { emit: { type: "result", data: { subtype: "success", text: "ok" } } }];
        server.faults = () => ({});
        const logged: unknown[] = [];
        const spy = vi.spyOn(console, "warn").mockImplementation((...a: unknown[]) => void logged.push(...a));
        const warnings: unknown[] = [];
        const c = client(mode.includes("console") ? undefined : warnings);
        const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
        const reported: unknown[] = [];
        try {
          for await (const item of c.streamRun(runId, {
            onInvalid: mode.startsWith("skip") ? "skip-and-warn" : (mode as "throw" | "deliver"),
            idleTimeoutMs: 400,
          }))
            reported.push(item);
        } catch (e) {
          reported.push(e);
        } finally {
          spy.mockRestore();
        }
        // (The frame reached the client and was reported: the test can fail.)
        expect(reported.length + warnings.length + logged.length).toBeGreaterThan(mode === "throw" ? 0 : 1);
        for (const [i, r] of [...reported, ...warnings, ...logged].entries()) expectNoFragment(`${mode} #${i}`, r);
      });
    }
  }

  it("through runAgent: the rejection it throws", async () => {
    server.script = [FRAMES[0]![1]];
    server.faults = () => ({});
    const error = await runAgent(client([]), { systemPrompt: "s", prompt: "p" }, { idleTimeoutMs: 400 }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe("StreamDecodeError");
    expectNoFragment("runAgent", error);
  });
});
