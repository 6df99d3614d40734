/**
 * The fault spec language (generator/mock/faults/spec.ts) and the plan of a
 * connection (plan.ts): what each item parses to, every kind of invalid
 * spec with the message that names it, `@` selection, seeded ranges that
 * repeat exactly, the order in which specs override each other, and `mix`.
 */
import { describe, expect, it } from "vitest";
import {
  drawMix,
  FAULT_CATALOG,
  isFaultSpecError,
  parseFaultSpec,
  planConnection,
  RunFaults,
  type FaultSpec,
  type PlanLayer,
} from "../../generator/mock/faults/index.js";

const run = (text: string): FaultSpec => parseFaultSpec(text, "test", "run");
const plan = (text: string, connection: number) =>
  planConnection([{ spec: run(text), thisConnection: false }], connection);

describe("parseFaultSpec", () => {
  it.each<[string, unknown]>([
    [
      "drop-after=3",
      { connection: [{ fault: { name: "drop-after", frames: { min: 3, max: 3 } }, on: { first: 1, last: 1 } }] },
    ],
    [
      "drop-after=1-5@*,seed=7",
      {
        seed: 7,
        connection: [{ fault: { name: "drop-after", frames: { min: 1, max: 5 } }, on: { first: 1, last: Infinity } }],
      },
    ],
    [
      "status=503, retry-after=2",
      {
        connection: [
          { fault: { name: "status", status: 503 } },
          { fault: { name: "retry-after", seconds: { min: 2, max: 2 } } },
        ],
      },
    ],
    ["wrong-type", { connection: [{ fault: { name: "wrong-type", body: "html" } }] }],
    [
      "ignore-resume=header@2-",
      { connection: [{ fault: { name: "ignore-resume", which: "header" }, on: { first: 2, last: Infinity } }] },
    ],
    [
      "eol=cr@1-3,bom@*,chunk",
      {
        connection: [
          { fault: { name: "eol", eol: "cr" }, on: { first: 1, last: 3 } },
          { fault: { name: "bom" } },
          { fault: { name: "chunk", bytes: { min: 1, max: 1 } } },
        ],
      },
    ],
    [
      "unknown-event=2,malformed-frame=0-4,duplicate-call",
      {
        run: [
          { name: "unknown-event", after: { min: 2, max: 2 } },
          { name: "malformed-frame", after: { min: 0, max: 4 } },
          { name: "duplicate-call" },
        ],
      },
    ],
    ["", { connection: [], run: [], seed: 0 }],
  ])("%j", (text, want) => {
    expect(run(text)).toMatchObject(want as object);
  });

  it.each<[string, "run" | "connection", RegExp]>([
    ["drop=3", "run", /unknown fault "drop"; known: drop-after, cut-frame/],
    ["drop-after", "run", /drop-after needs a value: drop-after=K/],
    ["drop-after=x", "run", /drop-after=K: "x" is not a whole number or a range LO-HI/],
    ["drop-after=5-2", "run", /the range 5-2 runs backwards/],
    ["drop-after=3,drop-after=4", "run", /drop-after is given twice \(drop-after=3, drop-after=4\)/],
    ["drop-after=3,", "run", /an empty item/],
    ["bom=1", "run", /bom takes no value/],
    ["eol=crcr", "run", /eol=cr\|lf\|crlf: "crcr" is not one of cr, lf, crlf/],
    ["status=404", "run", /"404" is not 429 or a 5xx status/],
    ["retry-after=2", "run", /retry-after=S goes with status=429\|5xx/],
    ["heartbeat=0", "run", /heartbeat=MS: 0 is outside 5 to 600000/],
    ["chunk=0", "run", /chunk=N: 0 is outside 1 to 65536/],
    ["drop-after=3@0", "run", /@0 is not a connection number or range/],
    ["drop-after=3@3-1", "run", /@3-1 is not a connection number or range/],
    [
      "unknown-event=1@2",
      "run",
      /unknown-event changes the run's events, which every connection sees: it takes no @connections/,
    ],
    ["seed=1-2", "run", /seed=N wants one number/],
    ["Drop-After=3", "run", /is not name\[=value\]\[@connections\]/],
    ["duplicate-call", "connection", /duplicate-call changes the run's events: give it when the run is created/],
    ["mix=3", "connection", /mix changes the run's events/],
    ["drop-after=3@2", "connection", /@connections is for the create-run request/],
    [`drop-after=1${",bom".repeat(500)}`, "run", /at most 2000 characters/],
  ])("%s (%s) is refused: %s", (text, context, message) => {
    let error: unknown;
    try {
      parseFaultSpec(text, "X-Mock-Fault header", context);
    } catch (e) {
      error = e;
    }
    expect(isFaultSpecError(error)).toBe(true);
    expect((error as Error).message).toMatch(/^X-Mock-Fault header: /);
    expect((error as Error).message).toMatch(message);
  });

  it("knows every fault of the catalog, and each entry has a value syntax, a scope, an effect and what the client must do", () => {
    for (const entry of FAULT_CATALOG) {
      expect(entry.does.length, entry.name).toBeGreaterThan(10);
      expect(entry.clientMust.length, entry.name).toBeGreaterThan(10);
      const needsValue = entry.value !== "" && !["chunk", "wrong-type", "ignore-resume"].includes(entry.name);
      const example = needsValue
        ? `${entry.name}=${entry.value
            .split("|")[0]!
            .replace(/^(K|N|MS|S|LO-HI)$/, "10")
            .replace("5xx", "503")}`
        : entry.name;
      const text = entry.name === "retry-after" ? `status=503,${example}` : example;
      expect(() => run(text), text).not.toThrow();
    }
  });
});

describe("planConnection", () => {
  it("applies a fault to the connections its @ selects (default: the first)", () => {
    expect([1, 2, 3].map((n) => plan("drop-after=2", n).dropAfter)).toEqual([2, undefined, undefined]);
    expect([1, 2, 3, 4].map((n) => plan("stall=0@2-3", n).stall)).toEqual([undefined, 0, 0, undefined]);
    expect([1, 5, 500].map((n) => plan("bom@2-", n).bom)).toEqual([false, true, true]);
  });

  it("draws a range's value per connection, the same for the same seed and connection whatever else happened, and differently for other seeds", () => {
    const draws = (seed: number): number[] =>
      Array.from({ length: 40 }, (_, i) => plan(`drop-after=0-9@*,seed=${seed}`, i + 1).dropAfter!);
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    expect(new Set(draws(7)).size).toBeGreaterThan(5); // spread over the range
    expect(draws(7).every((k) => k >= 0 && k <= 9)).toBe(true);
    // The cut offset is seeded as well.
    expect(plan("cut-frame=1,seed=3", 1).cutFrame).toEqual(plan("cut-frame=1,seed=3", 1).cutFrame);
    expect(plan("cut-frame=1,seed=3", 1).cutFrame!.cutAt).not.toBe(plan("cut-frame=1,seed=4", 1).cutFrame!.cutAt);
  });

  it("a more specific spec replaces a fault of the same name, keeps the others, and one given for this connection ignores @", () => {
    const layers: PlanLayer[] = [
      { spec: run("drop-after=5,eol=crlf@*"), thisConnection: false },
      { spec: run("drop-after=1"), thisConnection: false },
      { spec: parseFaultSpec("chunk=2", "queue", "connection"), thisConnection: true },
    ];
    const first = planConnection(layers, 1);
    expect(first).toMatchObject({ dropAfter: 1, eol: "\r\n", chunkBytes: 2 });
    expect(first.text).toBe("chunk=2,drop-after=1,eol=crlf");
    const second = planConnection(layers, 2);
    expect(second).toMatchObject({ eol: "\r\n", chunkBytes: 2 });
    expect(second.dropAfter).toBeUndefined();
  });

  it("puts Retry-After on the status answer it goes with", () => {
    expect(plan("status=429,retry-after=3", 1).status).toEqual({ status: 429, retryAfterSeconds: 3 });
    expect(plan("status=503", 1).status).toEqual({ status: 503 });
  });
});

describe("stored-event faults", () => {
  const store = (text: string, script: string[]): string[] => {
    const faults = new RunFaults([run(text)]);
    return script.flatMap((type, i) =>
      faults.expand(type, {}, i === script.length - 1).map((e) => ("raw" in e ? "RAW" : e.type)),
    );
  };

  it("inserts after the K-th event, before the first with K=0, before the terminal event in a shorter run, and doubles tool calls", () => {
    const script = ["assistant_delta", "local_tool_call", "assistant_message", "result"];
    expect(store("unknown-event=1", script)).toEqual([
      "assistant_delta",
      "mock_unknown_event",
      "local_tool_call",
      "assistant_message",
      "result",
    ]);
    expect(store("malformed-frame=0", script)).toEqual(["RAW", ...script]);
    expect(store("unknown-event=9,malformed-frame=9", script)).toEqual([
      ...script.slice(0, 3),
      "mock_unknown_event",
      "RAW",
      "result",
    ]);
    expect(store("duplicate-call", script)).toEqual([
      "assistant_delta",
      "local_tool_call",
      "local_tool_call",
      "assistant_message",
      "result",
    ]);
  });
});

describe("mix", () => {
  it("draws 2 to 4 faults plus the seed, the same for the same number, that parse (connection-ending faults limited to the first 3 connections)", () => {
    for (let n = 0; n < 200; n++) {
      const text = drawMix(n);
      expect(drawMix(n)).toBe(text);
      const items = text
        .split(/,(?=[a-z-]+(?:=|@|,|$))/)
        .filter((i) => !i.startsWith("seed=") && !i.startsWith("retry-after="));
      expect(items.length, text).toBeGreaterThanOrEqual(2);
      expect(items.length, text).toBeLessThanOrEqual(4);
      const spec = run(`mix=${n}`);
      for (const { fault, on } of spec.connection) {
        if (
          [
            "drop-after",
            "cut-frame",
            "cut-bytes",
            "end-clean",
            "stall",
            "status",
            "retry-after",
            "wrong-type",
            "replay",
            "ignore-resume",
            "delay",
          ].includes(fault.name)
        )
          expect(on.last, text).toBeLessThanOrEqual(3);
      }
    }
    // An item named beside mix replaces the drawn one.
    const mixed = run("mix=1");
    const name = mixed.connection[0]?.fault.name ?? mixed.run[0]!.name;
    const replaced = run(
      `mix=1,${name === "duplicate-call" || name === "bom" ? name : `${name}=${name === "eol" ? "lf" : name === "wrong-type" ? "json" : name === "ignore-resume" ? "query" : name === "status" ? "503" : "10"}`}`,
    );
    expect(
      [...replaced.connection.map((c) => c.fault.name), ...replaced.run.map((r) => r.name)].filter((n) => n === name),
    ).toHaveLength(1);
  });
});
