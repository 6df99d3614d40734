/**
 * What each fault puts on the wire, read with a raw node:http client (no
 * SSE parser in between): the bytes, the status and headers, how the body
 * ends (a reset, a clean end, silence), and what the run stores; and the
 * ways to ask for faults (X-Mock-Fault and ?mockFault= on the create-run
 * and stream requests, the server's `faults`, a script's `faults`, the
 * test queue), with a 400 naming the problem for an invalid spec.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MALFORMED_DATA, UNKNOWN_EVENT_TYPE } from "../../generator/mock/faults/index.js";
import { scriptOf } from "../../generator/mock/flow-player.js";
import { startMockServer, type MockServer } from "../../generator/mock/index.js";

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({
    scripts: [
      scriptOf(
        "faulty-script",
        {
          faults: ["drop-after=1", "bom@*"],
          runs: [
            {
              events: [
                { type: "assistant_delta", data: { text: "a" } },
                { type: "assistant_delta", data: { text: "b" } },
                { type: "result", data: { subtype: "success", text: "ab" } },
              ],
            },
          ],
        },
        "faulty-script.json",
      ),
    ],
  });
});
afterAll(() => server.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** How the body ended: `end` (the chunked terminator came), `reset` (the socket closed before it), or `stopped` (by `until`). */
  ending: "end" | "reset" | "stopped";
}

/** One request; `until` stops reading (and closes) once the body so far satisfies it. */
function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; until?: (body: Buffer) => boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${server.apiKey}`,
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      const done = (ending: RawAnswer["ending"]): void =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), ending });
      res.on("data", (c: Buffer) => {
        chunks.push(c);
        if (init.until?.(Buffer.concat(chunks)) === true) {
          done("stopped");
          req.destroy();
        }
      });
      res.on("end", () => done("end"));
      res.on("aborted", () => done("reset"));
      res.on("error", () => done("reset"));
    });
    req.end(payload);
  });
}

const runsPath = (): string => `/api/v1/workspaces/${server.workspace}/agent-runs`;

async function createRun(
  metadata: Record<string, string>,
  headers: Record<string, string> = {},
  query = "",
): Promise<string> {
  const answer = await raw(`${runsPath()}${query}`, {
    method: "POST",
    headers,
    body: { systemPrompt: "You are helpful.", prompt: "x", metadata },
  });
  expect(answer.status, answer.body.toString()).toBeLessThan(300);
  const runId = (JSON.parse(answer.body.toString()) as { runId: string }).runId;
  await server.waitForRun(runId);
  return runId;
}

const streamPath = (runId: string, query = ""): string => `${runsPath()}/${runId}/stream${query}`;
const ids = (body: Buffer): string[] =>
  [...body.toString("utf8").matchAll(/(?:^\uFEFF?|[\r\n])id: (\d+)/g)].map((m) => m[1]!);
const lastStream = () => server.streams[server.streams.length - 1]!;

describe("connection faults on the wire", () => {
  it("drop-after=K: K whole frames, then a reset (no chunked terminator)", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": "drop-after=2" });
    const a = await raw(streamPath(runId));
    expect(a.ending).toBe("reset");
    expect(ids(a.body)).toEqual(["1", "2"]);
    expect(a.body.toString().endsWith("\n\n")).toBe(true);
    expect(a.headers["x-mock-faults"]).toBe("drop-after=2");
    expect(lastStream()).toMatchObject({ runId, connection: 1, end: "dropped", frames: 2, faults: "drop-after=2" });
  });

  it("cut-frame=K: K frames and part of the next, then a reset", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": "cut-frame=1,seed=5" });
    const a = await raw(streamPath(runId));
    expect(a.ending).toBe("reset");
    const [first, rest] = [a.body.toString().split("\n\n")[0]!, a.body.toString().split("\n\n").slice(1).join("\n\n")];
    expect(first).toMatch(/^id: 1\n/);
    expect(rest.length).toBeGreaterThan(0);
    expect(server.transcript(runId)).toContain(rest); // a true prefix of the second frame
    expect(rest.endsWith("\n\n")).toBe(false);
    expect(lastStream()).toMatchObject({ end: "cut", frames: 1 });
  });

  it("cut-bytes=N: exactly N body bytes, then a reset", async () => {
    const runId = await createRun({ scenario: "many", count: "4" }, { "X-Mock-Fault": "cut-bytes=37" });
    const a = await raw(streamPath(runId));
    expect(a.ending).toBe("reset");
    expect(a.body.toString()).toBe(server.transcript(runId).slice(0, 37));
  });

  it("end-clean=K: K frames, then a clean end without the terminal event", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": "end-clean=3" });
    const a = await raw(streamPath(runId));
    expect(a.ending).toBe("end");
    expect(ids(a.body)).toEqual(["1", "2", "3"]);
    expect(lastStream()).toMatchObject({ end: "ended-clean", frames: 3 });
  });

  it("stall=K: K frames, then silence with the socket open (heartbeats stop too)", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": "stall=2,heartbeat=5" });
    let seen = 0;
    const a = await raw(streamPath(runId), {
      until: (body) => {
        // Stop once the server says it stalled, and some more heartbeats' worth of chances have passed.
        if (lastStream().end === "stalled") seen++;
        return ids(body).length >= 2 && seen > 0;
      },
    });
    expect(a.ending).toBe("stopped");
    expect(ids(a.body)).toEqual(["1", "2"]);
    expect(lastStream()).toMatchObject({ end: "stalled", frames: 2 });
  });

  it("heartbeat=MS with delay=MS: comments keep a held-back stream alive, then the frames come", async () => {
    const runId = await createRun({ scenario: "many", count: "2" }, { "X-Mock-Fault": "heartbeat=10,delay=120" });
    const a = await raw(streamPath(runId));
    const text = a.body.toString();
    expect(a.ending).toBe("end");
    expect(text.indexOf(": ping\n\n")).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(": ping\n\n")).toBeLessThan(text.indexOf("id: 1\n"));
    expect(text.replace(/: ping\n\n/g, "")).toBe(server.transcript(runId));
  });

  it("chunk=N: the same bytes, in N-byte socket writes (a multi-byte character split)", async () => {
    const runId = await createRun({ scenario: "structured", output: "héllo wörld ✓" }, { "X-Mock-Fault": "chunk=3" });
    const a = await raw(streamPath(runId));
    const transcript = server.transcript(runId);
    expect(a.body.toString()).toBe(transcript);
    // Each frame is written in its own 3-byte pieces.
    const frames = transcript.split(/(?<=\n\n)/);
    expect(lastStream().writes).toBe(frames.reduce((n, f) => n + Math.ceil(Buffer.byteLength(f) / 3), 0));
    expect(frames.some((f) => /[\u0080-\uffff]/.test(f))).toBe(true);
  });

  it.each([
    ["cr", "\r"],
    ["crlf", "\r\n"],
    ["lf", "\n"],
  ])("eol=%s: every line ends so", async (name, eol) => {
    const runId = await createRun({ scenario: "many", count: "3" }, { "X-Mock-Fault": `eol=${name}` });
    const a = await raw(streamPath(runId));
    expect(a.body.toString()).toBe(server.transcript(runId).replace(/\n/g, eol));
  });

  it("bom: the body starts with EF BB BF, then the stream", async () => {
    const runId = await createRun({ scenario: "many", count: "2" }, { "X-Mock-Fault": "bom" });
    const a = await raw(streamPath(runId));
    expect([...a.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(a.body.subarray(3).toString()).toBe(server.transcript(runId));
  });

  it("status=503,retry-after=2: that answer once, with Retry-After; the next connection streams", async () => {
    const runId = await createRun({ scenario: "many", count: "2" }, { "X-Mock-Fault": "status=503,retry-after=2" });
    const a = await raw(streamPath(runId));
    expect(a.status).toBe(503);
    expect(a.headers["retry-after"]).toBe("2");
    expect(JSON.parse(a.body.toString())).toMatchObject({ error: "server_error" });
    const b = await raw(streamPath(runId));
    expect(b.status).toBe(200);
    expect(b.body.toString()).toBe(server.transcript(runId));
  });

  it.each([
    ["html", /^text\/html/, /<title>Sign in/],
    ["json", /^application\/json/, /Please sign in/],
  ])("wrong-type=%s: 200 with that content type", async (body, type, content) => {
    const runId = await createRun({ scenario: "many", count: "2" }, { "X-Mock-Fault": `wrong-type=${body}` });
    const a = await raw(streamPath(runId));
    expect(a.status).toBe(200);
    expect(a.headers["content-type"]).toMatch(type);
    expect(a.body.toString()).toMatch(content);
  });

  it("replay=K: the K frames before the resume point first", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": "replay=2@*" });
    const a = await raw(streamPath(runId), { headers: { "last-event-id": "4" } });
    expect(ids(a.body)).toEqual(["3", "4", "5", "6", "7", "8"]);
  });

  it.each([
    ["both", { header: "4", query: "4" }, ["1"]],
    ["header", { header: "4", query: "4" }, ["5"]],
    ["header", { header: "4" }, ["1"]],
    ["query", { query: "4" }, ["1"]],
    ["query", { header: "4", query: "2" }, ["5"]],
  ] as const)("ignore-resume=%s with %j: the first frame sent is %j", async (which, hints, first) => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": `ignore-resume=${which}` });
    const a = await raw(streamPath(runId, "query" in hints ? `?lastSeq=${hints.query}` : ""), {
      headers: "header" in hints ? { "last-event-id": hints.header } : {},
    });
    expect(ids(a.body).slice(0, 1)).toEqual(first);
  });
});

describe("stored-event faults", () => {
  it("unknown-event and malformed-frame are stored after the K-th event, each with its own seq, and every connection replays them alike", async () => {
    const runId = await createRun(
      { scenario: "many", count: "4" },
      { "X-Mock-Fault": "unknown-event=1,malformed-frame=2" },
    );
    const log = server.runs.get(runId)!.events.map((e) => ("raw" in e ? `raw:${e.raw}` : e.type));
    expect(log).toEqual([
      "assistant_delta",
      UNKNOWN_EVENT_TYPE,
      "assistant_delta",
      `raw:${MALFORMED_DATA}`,
      "assistant_delta",
      "assistant_delta",
      "assistant_message",
      "result",
    ]);
    expect(server.runs.get(runId)!.events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const a = await raw(streamPath(runId));
    expect(a.body.toString()).toContain(`event: ${UNKNOWN_EVENT_TYPE}\n`);
    expect(a.body.toString()).toContain(`data: ${MALFORMED_DATA}\n`);
    expect(a.body.toString()).toBe(server.transcript(runId));
  });

  it("duplicate-call stores each local_tool_call twice, under two seqs", async () => {
    const answer = await raw(runsPath(), {
      method: "POST",
      headers: { "X-Mock-Fault": "duplicate-call" },
      body: {
        systemPrompt: "You are helpful.",
        prompt: "x",
        tools: [{ kind: "local", name: "lookup", parameters: { type: "object" } }],
      },
    });
    const runId = (JSON.parse(answer.body.toString()) as { runId: string }).runId;
    await new Promise((r) => setTimeout(r, 50));
    const calls = server.runs.get(runId)!.events.filter((e) => e.type === "local_tool_call");
    expect(calls).toHaveLength(2);
    expect(calls[0]!.seq).not.toBe(calls[1]!.seq);
    expect((calls[0] as { data: unknown }).data).toEqual((calls[1] as { data: unknown }).data);
    await raw(`${runsPath()}/${runId}/cancel`, { method: "POST", body: {} });
  });
});

describe("asking for faults", () => {
  it("?mockFault= on the create-run request works like the header, and @ picks the connections", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, {}, "?mockFault=end-clean%3D1%402-3");
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await raw(streamPath(runId)));
    expect(answers.map((a) => ids(a.body).length)).toEqual([8, 1, 1, 8]);
    expect(server.streams.slice(-4).map((s) => s.connection)).toEqual([1, 2, 3, 4]);
  });

  it("on a stream request (header or query) a fault applies to that connection only, after the run's own", async () => {
    const runId = await createRun({ scenario: "many", count: "6" }, { "X-Mock-Fault": "eol=crlf@*" });
    const a = await raw(streamPath(runId, "?mockFault=drop-after%3D1"));
    expect(a.ending).toBe("reset");
    expect(a.headers["x-mock-faults"]).toBe("drop-after=1,eol=crlf");
    const b = await raw(streamPath(runId), { headers: { "X-Mock-Fault": "end-clean=2" } });
    expect(b.headers["x-mock-faults"]).toBe("end-clean=2,eol=crlf");
    const c = await raw(streamPath(runId));
    expect(c.headers["x-mock-faults"]).toBe("eol=crlf");
    expect(c.body.toString()).toBe(server.transcript(runId).replace(/\n/g, "\r\n"));
  });

  it("a stream request repeating the create-run request's header (one header on every call) does not apply it again", async () => {
    const runId = await createRun({ scenario: "many", count: "4" }, { "X-Mock-Fault": "drop-after=1,duplicate-call" });
    const first = await raw(streamPath(runId), { headers: { "X-Mock-Fault": "drop-after=1,duplicate-call" } });
    expect(first.ending).toBe("reset");
    const second = await raw(streamPath(runId), { headers: { "X-Mock-Fault": "drop-after=1,duplicate-call" } });
    expect(second.ending).toBe("end");
    expect(second.headers["x-mock-faults"]).toBeUndefined();
  });

  it("the test queue gives the next connections their faults, in order", async () => {
    const runId = await createRun({ scenario: "many", count: "4" });
    server.faults.push("drop-after=1", "status=429,retry-after=0");
    expect((await raw(streamPath(runId))).ending).toBe("reset");
    expect((await raw(streamPath(runId))).status).toBe(429);
    expect((await raw(streamPath(runId))).body.toString()).toBe(server.transcript(runId));
    expect(server.faults).toEqual([]);
  });

  it("a script's faults apply to every run that plays it", async () => {
    const runId = await createRun({ scenario: "faulty-script" });
    const a = await raw(streamPath(runId));
    expect(a.ending).toBe("reset");
    expect([...a.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(ids(a.body)).toEqual(["1"]);
    expect(() =>
      scriptOf("bad", { faults: "drop-after=x", runs: [{ events: [{ type: "result", data: {} }] }] }, "bad.json"),
    ).toThrow(/^bad\.json: faults: drop-after=K: "x" is not a whole number/);
    expect(() =>
      scriptOf("bad", { faults: 3, runs: [{ events: [{ type: "result", data: {} }] }] }, "bad.json"),
    ).toThrow(/`faults` is a fault spec/);
  });

  it("the server's faults (--fault) apply to every run, and a request's spec replaces a fault it names again", async () => {
    const faulty = await startMockServer({ faults: "end-clean=1,bom" });
    try {
      const create = async (headers: Record<string, string>): Promise<string> => {
        const res = await fetch(`${faulty.url}/api/v1/workspaces/${faulty.workspace}/agent-runs`, {
          method: "POST",
          headers: { authorization: `Bearer ${faulty.apiKey}`, "content-type": "application/json", ...headers },
          body: JSON.stringify({ systemPrompt: "x", prompt: "x", metadata: { scenario: "many", count: "3" } }),
        });
        return ((await res.json()) as { runId: string }).runId;
      };
      const stream = (runId: string) =>
        fetch(`${faulty.url}/api/v1/workspaces/${faulty.workspace}/agent-runs/${runId}/stream`, {
          headers: { authorization: `Bearer ${faulty.apiKey}` },
        });
      expect((await stream(await create({}))).headers.get("x-mock-faults")).toBe("bom,end-clean=1");
      const replaced = await stream(await create({ "X-Mock-Fault": "end-clean=2" }));
      expect(replaced.headers.get("x-mock-faults")).toBe("bom,end-clean=2");
      await replaced.arrayBuffer();
      await expect(startMockServer({ faults: "drop-after=-1" })).rejects.toThrow(
        /^--fault: drop-after=K: "-1" is not a whole number/,
      );
    } finally {
      await faulty.close();
    }
  });

  it("mix=N shows what it drew in X-Mock-Faults, the same for the same N", async () => {
    const headersOf = async (): Promise<string | undefined> => {
      const runId = await createRun({ scenario: "many", count: "3" }, { "X-Mock-Fault": "mix=12" });
      const answers: RawAnswer[] = [];
      for (let i = 0; i < 3; i++)
        answers.push(await raw(streamPath(runId), { until: () => lastStream().end === "stalled" }));
      return answers.map((a) => a.headers["x-mock-faults"] ?? "-").join(" | ");
    };
    const first = await headersOf();
    expect(first).not.toBe("- | - | -");
    expect(await headersOf()).toBe(first);
  });

  it.each([
    [
      "X-Mock-Fault on create-run",
      "POST",
      "",
      { "X-Mock-Fault": "drop-after=x" },
      /^X-Mock-Fault header: drop-after=K: "x" is not a whole number or a range LO-HI$/,
    ],
    [
      "?mockFault= on create-run",
      "POST",
      "?mockFault=nope",
      {},
      /^\?mockFault=: unknown fault "nope"; known: drop-after/,
    ],
    [
      "a stored-event fault on a stream request",
      "GET",
      "",
      { "X-Mock-Fault": "duplicate-call" },
      /^X-Mock-Fault header: duplicate-call changes the run's events: give it when the run is created/,
    ],
    [
      "header and query naming one fault twice",
      "GET",
      "?mockFault=stall%3D1",
      { "X-Mock-Fault": "stall=2" },
      /^X-Mock-Fault header and \?mockFault=: stall is given twice \(stall=2, stall=1\)$/,
    ],
  ])(
    "an invalid spec (%s) is answered 400 invalid_request naming the problem",
    async (_name, method, query, headers, message) => {
      const runId = await createRun({ scenario: "many", count: "1" });
      const before = server.streams.length;
      const a =
        method === "POST"
          ? await raw(`${runsPath()}${query}`, { method, headers, body: { systemPrompt: "x", prompt: "x" } })
          : await raw(streamPath(runId, query), { headers });
      expect(a.status).toBe(400);
      const body = JSON.parse(a.body.toString()) as { error: string; message: string };
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
      expect(server.streams.length).toBe(before); // no connection was served
    },
  );
});
