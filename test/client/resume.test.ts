/**
 * streamRun resume through real HTTP: connections cut at every event boundary
 * and at byte offsets inside frames, clean ends without a terminal event,
 * 429/5xx on reconnect, and giving up. Every run must deliver each event
 * exactly once, in seq order.
 */
import { describe, expect, it, vi } from "vitest";
import type { AgentRunEvent } from "../../generated/types.js";
import { isTerminalEvent, MantyxConnectionError, StreamDecodeError } from "../../index.js";
import { backoff } from "../../runtime/client/internal/backoff.js";
import { startMockServer } from "../../generator/mock/index.js";
import { clientFor, collect, useMockServer } from "./helpers.js";

const server = useMockServer({ retryMs: 1 });

/** A finished run of `count` deltas, and its full SSE transcript. */
async function finishedRun(count = 6): Promise<{ runId: string; transcript: string; seqs: number[] }> {
  const client = clientFor(server());
  const { runId } = await client.createRun({
    systemPrompt: "You are helpful.",
    prompt: "count",
    metadata: { scenario: "many", count: String(count) },
  });
  const run = await server().waitForRun(runId);
  return { runId, transcript: server().transcript(runId), seqs: run.events.map((e) => e.seq) };
}

async function streamWith(runId: string, faults: string[]): Promise<AgentRunEvent[]> {
  server().faults.splice(0, server().faults.length, ...faults);
  const items = await collect(clientFor(server()).streamRun(runId, { maxReconnects: 20 }));
  expect(server().faults).toEqual([]); // every fault was met
  return items.filter((i): i is AgentRunEvent => !(i instanceof StreamDecodeError));
}

function expectExactlyOnce(events: AgentRunEvent[], seqs: number[]): void {
  expect(events.map((e) => e.seq)).toEqual(seqs);
  expect(isTerminalEvent(events[events.length - 1]!)).toBe(true);
}

describe("streamRun resume", () => {
  it("delivers a run without faults on one connection", async () => {
    const { runId, seqs } = await finishedRun();
    const before = server().streams.length;
    expectExactlyOnce(await streamWith(runId, []), seqs);
    expect(server().streams.length - before).toBe(1);
  });

  it("resumes after a cut at every byte offset of the stream", async () => {
    const { runId, transcript, seqs } = await finishedRun(3);
    const total = Buffer.byteLength(transcript);
    // Every offset: event boundaries, mid-field, mid-line, between the two LFs.
    for (let cut = 1; cut < total; cut++) {
      const events = await streamWith(runId, [`cut-bytes=${cut}`]);
      expectExactlyOnce(events, seqs);
    }
  }, 120_000);

  it("resumes after a cut at every event boundary, with Last-Event-ID and ?lastSeq= naming the last seq delivered", async () => {
    const { runId, seqs } = await finishedRun();
    for (let n = 0; n < seqs.length; n++) {
      const first = server().streams.length;
      const events = await streamWith(runId, [`drop-after=${n}`]);
      expectExactlyOnce(events, seqs);
      const resumed = server().streams[first + 1]!;
      if (n === 0) {
        expect(resumed.lastEventId).toBeUndefined();
      } else {
        expect(resumed.lastEventId).toBe(String(seqs[n - 1]));
        expect(resumed.lastSeqQuery).toBe(String(seqs[n - 1]));
      }
    }
  });

  it("resumes after several cuts in a row on one stream", async () => {
    const { runId, seqs } = await finishedRun(10);
    const events = await streamWith(runId, [
      "drop-after=2",
      "cut-bytes=40",
      "drop-after=0",
      "end-clean=3",
      "drop-after=1",
    ]);
    expectExactlyOnce(events, seqs);
  });

  it("treats a clean end of stream without a terminal event as a drop and resumes", async () => {
    const { runId, seqs } = await finishedRun();
    const first = server().streams.length;
    const events = await streamWith(runId, ["end-clean=2"]);
    expectExactlyOnce(events, seqs);
    expect(server().streams[first + 1]!.lastEventId).toBe(String(seqs[1]));
  });

  it("starts after options.lastSeq, and resumes from the last event delivered", async () => {
    const { runId, seqs } = await finishedRun();
    // Start from seq 3 by hand, then cut: the resumed connection asks for 4 onwards.
    server().faults.push("drop-after=1");
    const items = await collect(clientFor(server()).streamRun(runId, { lastSeq: 3 }));
    expect(items.map((e) => (e as AgentRunEvent).seq)).toEqual(seqs.filter((s) => s > 3));
  });

  it("drops duplicates when a reconnect replays events already delivered (server ignores the resume point)", async () => {
    const { runId, seqs } = await finishedRun();
    const events = await streamWith(runId, ["drop-after=3", "ignore-resume"]);
    expectExactlyOnce(events, seqs);
  });

  it("malformed messages (onInvalid: deliver) are delivered once across a cut at every point, whether the server honours the resume point or replays everything", async () => {
    const client = clientFor(server());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "invalid",
      metadata: { scenario: "invalid" },
    });
    await server().waitForRun(runId);
    const shape = (items: unknown[]): unknown[] =>
      items.map((i) => (i instanceof StreamDecodeError ? `${i.type}@${i.frame.id}` : (i as AgentRunEvent).seq));
    const expected = [1, "invalid-json@2", "invalid-event@3", 4, 5];
    expect(shape(await collect(client.streamRun(runId, { onInvalid: "deliver" })))).toEqual(expected);
    for (const replay of [[], ["ignore-resume"]] as string[][]) {
      for (let after = 1; after < 5; after++) {
        server().faults.splice(0, server().faults.length, `drop-after=${after}`, ...replay);
        const items = await collect(client.streamRun(runId, { onInvalid: "deliver", maxReconnects: 5 }));
        expect({ after, replay: replay.length, items: shape(items) }).toEqual({
          after,
          replay: replay.length,
          items: expected,
        });
        expect(server().faults).toEqual([]);
      }
    }
  });

  it("malformed messages without their own id: line (several inheriting one id) survive a cut at every point when the server replays everything: each delivered once", async () => {
    const client = clientFor(server());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "x",
      metadata: { scenario: "invalid-no-id" },
    });
    await server().waitForRun(runId);
    const shape = (items: unknown[]): unknown[] =>
      items.map((i) =>
        i instanceof StreamDecodeError ? `${i.type}:${i.frame.data.slice(0, 16)}` : (i as AgentRunEvent).seq,
      );
    const expected = shape(await collect(client.streamRun(runId, { onInvalid: "deliver" })));
    expect(expected).toEqual([
      1,
      "invalid-json:{not json",
      "invalid-json:{not json either",
      expect.stringMatching(/^invalid-event:/),
      5,
    ]);
    for (let after = 1; after < 5; after++) {
      server().faults.splice(0, server().faults.length, `drop-after=${after}`, "ignore-resume");
      const items = shape(await collect(client.streamRun(runId, { onInvalid: "deliver", maxReconnects: 5 })));
      expect({ after, items }).toEqual({ after, items: expected });
    }
  });

  it("resumes a live run that is still producing events", async () => {
    const client = clientFor(server());
    const { runId } = await client.createRun({
      systemPrompt: "You are helpful.",
      prompt: "live",
      metadata: { scenario: "many", count: "8", stepMs: "15" },
    });
    server().faults.push("drop-after=2", "cut-bytes=30", "end-clean=1");
    const events = (await collect(client.streamRun(runId, { maxReconnects: 20 }))) as AgentRunEvent[];
    const run = await server().waitForRun(runId);
    expectExactlyOnce(
      events,
      run.events.map((e) => e.seq),
    );
  });

  it("retries 429 and 503 answers to a reconnect with back-off", async () => {
    const { runId, seqs } = await finishedRun();
    const events = await streamWith(runId, ["status=429,retry-after=0", "drop-after=2", "status=503"]);
    expectExactlyOnce(events, seqs);
  });

  it("a Retry-After longer than the cap (60 s; here about 35 days) is not waited for: the stream reconnects on its own back-off and completes", async () => {
    const { runId, seqs } = await finishedRun();
    server().faults.push("status=503,retry-after=3000000");
    const first = server().streams.length;
    const delays: number[] = [];
    const events = await collect(clientFor(server()).streamRun(runId, { onReconnect: (i) => delays.push(i.delayMs) }));
    server().faults.length = 0;
    expect(events.map((e) => (e as AgentRunEvent).seq)).toEqual(seqs);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeLessThanOrEqual(5000);
    expect(server().streams.length - first).toBe(2);
  });

  it("gives up with MantyxConnectionError (and the resume point) after maxReconnects drops without progress", async () => {
    const { runId } = await finishedRun();
    server().faults.push("drop-after=2", ...Array.from({ length: 3 }, () => "status=503"));
    const stream = clientFor(server()).streamRun(runId, { maxReconnects: 2 });
    const seen: number[] = [];
    const error = await (async () => {
      try {
        for await (const e of stream) seen.push((e as AgentRunEvent).seq);
      } catch (e) {
        return e;
      }
    })();
    server().faults.length = 0;
    expect(error).toBeInstanceOf(MantyxConnectionError);
    expect((error as MantyxConnectionError).lastSeq).toBe(seen[seen.length - 1]);
    expect(stream.lastSeq).toBe(2);
  });

  /** The reconnect delays of a finished run read through two drops in a row, from a server that sends `retry: retryMs`. */
  async function reconnectDelays(retryMs: number): Promise<number[]> {
    const slow = await startMockServer({ retryMs });
    try {
      const client = clientFor(slow, { retryDelay: { initialDelayMs: 1, maxDelayMs: 1000 } });
      const { runId } = await client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
        metadata: { scenario: "text" },
      });
      await slow.waitForRun(runId);
      slow.faults.push("drop-after=1", "drop-after=0");
      const delays: number[] = [];
      await collect(client.streamRun(runId, { onReconnect: (i) => delays.push(i.delayMs) }));
      return delays;
    } finally {
      await slow.close();
    }
  }

  it("bases the back-off on the stream's retry: field (bounded, with jitter)", async () => {
    const delays = await reconnectDelays(300);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(150); // retry: 300 (a minimum, so exactly 300 on the 1st attempt)
    expect(delays[0]).toBeLessThanOrEqual(300);
    expect(delays[1]).toBeGreaterThanOrEqual(300); // doubled for the 2nd attempt without progress
    expect(delays[1]).toBeLessThanOrEqual(600);
  });

  it("honours a retry: (and a Retry-After) above maxDelayMs: the cap bounds only the client's own growth", () => {
    for (const attempt of [1, 2, 5]) {
      expect(backoff(attempt, { maxDelayMs: 1000 }, 3000)).toBe(3000);
      expect(backoff(attempt, { maxDelayMs: 1000 }, undefined, 4000)).toBe(4000);
      expect(backoff(attempt, { maxDelayMs: 1000 })).toBeLessThanOrEqual(1000);
    }
  });

  it("never reconnects sooner than the stream's retry: asks (jitter only lengthens it)", async () => {
    const random = vi.spyOn(Math, "random").mockReturnValue(0); // the shortest jitter
    try {
      const delays = await reconnectDelays(200);
      expect(delays).toHaveLength(2);
      for (const d of delays) expect(d).toBeGreaterThanOrEqual(200);
      expect(delays[1]).toBeLessThanOrEqual(400);
    } finally {
      random.mockRestore();
    }
  });

  describe("past the terminal event", () => {
    it("a resume after the terminal event, answered with an immediate clean end: getRun says finished, a full replay (no resume hints) finds the terminal event at or before lastSeq, and the stream ends with it as `terminal`, delivering nothing", async () => {
      const { runId, seqs } = await finishedRun();
      const first = server().streams.length;
      const before = server().requests.length;
      const stream = clientFor(server()).streamRun(runId, { lastSeq: seqs[seqs.length - 1], maxReconnects: 3 });
      expect(await collect(stream)).toEqual([]);
      expect(server().streams.length - first).toBe(2);
      const after = server()
        .requests.slice(before)
        .map((r) => `${r.method} ${r.path.split("/").slice(-1)[0]}`);
      expect(after).toEqual(["GET stream", `GET ${runId}`, "GET stream"]);
      expect(server().streams[first + 1]).toMatchObject({ lastEventId: undefined, lastSeqQuery: undefined });
      expect(stream.terminal).toMatchObject({ seq: seqs[seqs.length - 1], type: "result" });
    });

    it("a finished run read through connections that end cleanly, two events in and then with no data, still delivers all six events and its terminal one (it used to end quietly after two)", async () => {
      const { runId, seqs } = await finishedRun(4);
      expect(seqs).toHaveLength(6);
      server().faults.splice(0, server().faults.length, "end-clean=2", "end-clean=0", "end-clean=0");
      const stream = clientFor(server()).streamRun(runId);
      const events = (await collect(stream)) as AgentRunEvent[];
      expect(server().faults).toEqual([]);
      expectExactlyOnce(events, seqs);
      expect(stream.terminal).toBe(events[events.length - 1]);
    });

    it("a finished run whose connections keep ending cleanly with nothing (a broken proxy) ends in MantyxConnectionError after maxReconnects, never quietly short", async () => {
      const { runId, seqs } = await finishedRun(6);
      const ends = Array.from({ length: 6 }, () => "end-clean=0");
      server().faults.splice(0, server().faults.length, "end-clean=2", ...ends);
      const stream = clientFor(server()).streamRun(runId, { maxReconnects: 3 });
      const seen: number[] = [];
      const error = await (async () => {
        for await (const e of stream) seen.push((e as AgentRunEvent).seq);
      })().catch((e: unknown) => e);
      server().faults.length = 0;
      expect(seen).toEqual(seqs.slice(0, 2));
      expect(error).toBeInstanceOf(MantyxConnectionError);
      expect((error as Error).message).toMatch(
        /the run is over \(getRun\) but 4 connections in a row brought no terminal event; resume with \{ lastSeq: 2 \}/,
      );
      expect(stream.terminal).toBeUndefined();
    });

    it("a quiet clean close of a resumed connection when the run has just finished does not lose the events after lastSeq: getRun says finished, and one more resume replays them", async () => {
      // The second connection ends cleanly before sending anything, as a
      // proxy closing it the moment the run finished would: getRun then
      // says "succeeded" while the terminal event was never delivered.
      const { runId, seqs } = await finishedRun();
      server().faults.push("end-clean=0");
      const resumed = clientFor(server()).streamRun(runId, { lastSeq: seqs[1], maxReconnects: 0 });
      const events = (await collect(resumed)) as AgentRunEvent[];
      expect(server().faults).toEqual([]);
      expect(events.map((e) => e.seq)).toEqual(seqs.slice(2));
      expect(resumed.terminal).toMatchObject({ seq: seqs[seqs.length - 1] });
    });

    it("after getRun said finished, a pass that brings new events but no terminal one is not the last: the next quiet close asks getRun again", async () => {
      const { runId, seqs } = await finishedRun(6);
      server().faults.push("end-clean=0", "end-clean=2", "end-clean=0");
      const stream = clientFor(server()).streamRun(runId, { lastSeq: seqs[1], maxReconnects: 3 });
      const events = (await collect(stream)) as AgentRunEvent[];
      expect(server().faults).toEqual([]);
      expect(events.map((e) => e.seq)).toEqual(seqs.slice(2));
      expect(stream.terminal).toMatchObject({ seq: seqs[seqs.length - 1] });
    });

    it("a run getRun reports with an unknown status: finished when its usage fields are set (one more resume, then the end); otherwise its quiet closes count toward maxReconnects", async () => {
      const client = clientFor(server());
      const done = await client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
        metadata: { scenario: "text", snapshotStatus: "completed" },
      });
      const run = await server().waitForRun(done.runId);
      const last = run.events[run.events.length - 1]!.seq;
      server().faults.push("end-clean=0");
      const stream = client.streamRun(done.runId, { lastSeq: last, maxReconnects: 0 });
      expect(await collect(stream)).toEqual([]);
      expect(server().faults).toEqual([]);

      // A live run (an event every 50 ms: the mock ends a connection as the next event is due).
      const live = await client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "x",
        metadata: { scenario: "many", count: "100", stepMs: "50", snapshotStatus: "thinking" },
      });
      server().faults.push(...Array.from({ length: 3 }, () => "end-clean=0"));
      const error = await collect(client.streamRun(live.runId, { maxReconnects: 2 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MantyxConnectionError);
      expect(server().faults).toEqual([]);
      await client.cancelRun(live.runId);
    });

    it("quiet clean closes while the run is live are backed off but do not count toward maxReconnects", async () => {
      const client = clientFor(server());
      const { runId } = await client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "live",
        metadata: { scenario: "many", count: "4", stepMs: "150" },
      });
      server().faults.push(...Array.from({ length: 4 }, () => "end-clean=0"));
      const attempts: number[] = [];
      const events = (await collect(
        client.streamRun(runId, { maxReconnects: 1, onReconnect: (i) => attempts.push(i.attempt) }),
      )) as AgentRunEvent[];
      const run = await server().waitForRun(runId);
      expectExactlyOnce(
        events,
        run.events.map((e) => e.seq),
      );
      expect(server().faults).toEqual([]);
      expect(attempts.slice(0, 4)).toEqual([1, 2, 3, 4]); // the back-off grows over the quiet closes
    });

    it("a replayed terminal event ends the stream without delivering it again or reconnecting", async () => {
      const { runId, seqs } = await finishedRun();
      server().faults.push("ignore-resume");
      const first = server().streams.length;
      const stream = clientFor(server()).streamRun(runId, { lastSeq: seqs[seqs.length - 1], maxReconnects: 3 });
      expect(await collect(stream)).toEqual([]);
      expect(server().streams.length - first).toBe(1);
      expect(stream.terminal).toMatchObject({ seq: seqs[seqs.length - 1], type: "result" });
    });

    it("once the terminal event is delivered, iterating again never reconnects", async () => {
      const { runId, seqs } = await finishedRun();
      const stream = clientFor(server()).streamRun(runId);
      expectExactlyOnce((await collect(stream)) as AgentRunEvent[], seqs);
      const first = server().streams.length;
      expect(await collect(stream)).toEqual([]);
      expect(server().streams.length).toBe(first);
    });

    it("a resumed connection that ends cleanly with no event while the run is still live is a drop (getRun says running)", async () => {
      const client = clientFor(server());
      const { runId } = await client.createRun({
        systemPrompt: "You are helpful.",
        prompt: "live",
        metadata: { scenario: "many", count: "6", stepMs: "20" },
      });
      server().faults.push("drop-after=2", "end-clean=0");
      const first = server().streams.length;
      const events = (await collect(client.streamRun(runId, { maxReconnects: 20 }))) as AgentRunEvent[];
      const run = await server().waitForRun(runId);
      expectExactlyOnce(
        events,
        run.events.map((e) => e.seq),
      );
      expect(server().streams.length - first).toBeGreaterThanOrEqual(3);
    });
  });

  it("reports each reconnect to onReconnect", async () => {
    const { runId } = await finishedRun();
    server().faults.push("drop-after=1");
    const attempts: number[] = [];
    await collect(clientFor(server()).streamRun(runId, { onReconnect: (i) => attempts.push(i.attempt) }));
    expect(attempts).toEqual([1]);
  });
});

describe("iterating a stream again", () => {
  it("after giving up, a new iteration gets a fresh reconnect budget", async () => {
    const { runId, seqs } = await finishedRun();
    const stream = clientFor(server()).streamRun(runId, { maxReconnects: 1 });
    // Three failing connections: the first pass gives up after two (one reconnect allowed).
    server().faults.splice(0, server().faults.length, "status=503", "status=503", "status=503");
    await expect(collect(stream)).rejects.toBeInstanceOf(MantyxConnectionError);
    expect(server().faults).toHaveLength(1);
    // The second pass meets one failure, reconnects once, and reads the run.
    const events = (await collect(stream)).filter((i): i is AgentRunEvent => !(i instanceof StreamDecodeError));
    expect(server().faults).toEqual([]);
    expectExactlyOnce(events, seqs);
  });
});
