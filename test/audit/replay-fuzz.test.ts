/**
 * Seeded random runs against the audit server (./fault-server.ts): a log
 * mixing valid events with malformed frames (not JSON with their own `id:`,
 * not JSON right after an event, inheriting its id, JSON that is no valid event), served
 * through random drops, mid-frame cuts, clean ends, replays and stripped
 * resume hints. With `onInvalid: "deliver"` and otherwise default settings,
 * the stream must deliver every stored frame exactly once, in order: events
 * by seq, malformed frames as StreamDecodeErrors at their place.
 */
import { describe, expect, it } from "vitest";
import { StreamDecodeError } from "../../index.js";
import type { ConnectionFaults, Step } from "./fault-server.js";
import { auditServer } from "./support.js";

const { server, client } = await auditServer();

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A run of `n` frames, each a valid delta or (1 in 4) a malformed one, then the terminal event; labels say what each delivers. */
function script(next: () => number, n: number): { steps: Step[]; labels: string[] } {
  const steps: Step[] = [];
  const labels: string[] = [];
  for (let i = 1; i <= n; i++) {
    const r = next();
    if (r < 0.1) {
      steps.push({ emit: { type: "assistant_delta", rawData: `{"seq":${i},"broken` } });
      labels.push(`bad ${i}`);
    } else if (r < 0.18 && labels.at(-1)?.startsWith("event")) {
      // Without an id: line it inherits the id before it (an event's); as the first frame it would have none to inherit, and a
      // client could not tell its replay from a new frame before the connection's first id.
      steps.push({ emit: { type: "assistant_delta", rawData: `not json ${i}`, idLine: null } });
      labels.push(`bad ${i}`);
    } else if (r < 0.25) {
      steps.push({ emit: { type: "assistant_delta", data: { nottext: i } } });
      labels.push(`bad ${i}`);
    } else {
      steps.push({ emit: { type: "assistant_delta", data: { text: `t${i}` } } });
      labels.push(`event ${i}`);
    }
  }
  steps.push({ emit: { type: "result", data: { subtype: "success", text: "ok" } } });
  labels.push(`event ${n + 1}`);
  return { steps, labels };
}

function faults(next: () => number): (n: number) => ConnectionFaults {
  const plan = Array.from({ length: 8 }, (): ConnectionFaults => {
    const f: ConnectionFaults = {};
    const r = next();
    const k = Math.floor(next() * 6);
    if (r < 0.3) f.dropAfter = k + 1;
    else if (r < 0.55) Object.assign(f, { cutAfter: k, cutBytes: 1 + Math.floor(next() * 40) });
    else if (r < 0.7) f.endAfter = k + 1;
    if (next() < 0.4) f.replay = 1 + Math.floor(next() * 4);
    if (next() < 0.3) f.ignoreResume = true;
    return f;
  });
  return (n) => plan[n - 1] ?? {};
}

describe("malformed frames across reconnects are delivered once, in place", () => {
  it("on 60 seeded runs", async () => {
    const c = client();
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const { steps, labels } = script(next, 4 + Math.floor(next() * 10));
      server.script = steps;
      server.faults = faults(next);
      const { runId } = await c.createRun({ systemPrompt: "s", prompt: "p" });
      const got: string[] = [];
      let error: unknown;
      try {
        for await (const item of c.streamRun(runId, { onInvalid: "deliver", idleTimeoutMs: 400 })) {
          if (item instanceof StreamDecodeError) {
            const where = item.frame.data.match(/\d+/)?.[0] ?? (item.value as { seq?: number } | undefined)?.seq;
            got.push(`bad ${where}`);
          } else got.push(`event ${item.seq}`);
        }
      } catch (e) {
        error = e;
      }
      if (error !== undefined || got.join() !== labels.join())
        expect({ seed, error: String(error ?? ""), got, faults: server.runs.get(runId)!.resumes }).toEqual({
          seed,
          error: "",
          got: labels,
          faults: [],
        });
    }
  }, 120_000);
});
